"""Which systems a meta-evaluation correlates, the same way whatever gives the human scores
(a human table or raw judgments).

* Subsets (SEEDA's): ``base`` leaves out the uncorrected input (``INPUT``; ``src`` or ``source``
  in Napoles et al.'s judgments) and SEEDA's fluency-edited outputs (``REF-F``, ``GPT-3.5``);
  ``+INPUT`` keeps the input, ``+fluency`` the fluency outputs, ``all`` everything; or a list of
  names. The default is ``base`` where fluency outputs are among the systems (SEEDA), ``all``
  otherwise (GJG15's 13 systems, INPUT included, as its Table 5 and the GREEN poster use).
* Systems of the subset without metric scores (no output file given) are left out with one
  note, unless the user named them in a list: then it is an error.
* A correlation needs :data:`~gecmetrics.meta.correlations.MIN_SYSTEMS` systems, and one over
  fewer than :data:`~gecmetrics.meta.correlations.FEW_SYSTEMS` comes with a warning.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Collection, Sequence

from ..errors import InputError, plural
from ..io.text import check_system_names
from .correlations import FEW_SYSTEMS, MIN_SYSTEMS

SUBSETS = ("base", "+INPUT", "+fluency", "all")
INPUT_SYSTEMS = ("INPUT", "src", "source")
"""Names of the uncorrected input among judged systems (GJG15/SEEDA, Napoles et al.)."""
FLUENCY_SYSTEMS = ("REF-F", "GPT-3.5")
"""SEEDA's fluency-edited outputs, outside its ``base`` set."""
_LEFT_OUT = {"base": INPUT_SYSTEMS + FLUENCY_SYSTEMS, "+INPUT": FLUENCY_SYSTEMS, "+fluency": INPUT_SYSTEMS,
             "all": ()}
EXPLICIT_HINT = "--systems NAME,NAME,... selects the systems explicitly"


def default_subset(systems: Collection[str]) -> str:
    """``base`` where SEEDA's fluency outputs are among the systems, ``all`` otherwise."""
    return "base" if any(s in FLUENCY_SYSTEMS for s in systems) else "all"


def is_named_list(subset: str | Sequence[str] | None) -> bool:
    """Whether ``subset`` names its systems (a list, or a string with commas)."""
    return subset is not None and not (isinstance(subset, str) and subset in _LEFT_OUT)


def subset_systems(available: Sequence[str], subset: str | Sequence[str] | None = None) -> list[str]:
    """The systems of a subset, in the order of ``available``: ``base``, ``+INPUT``,
    ``+fluency``, ``all``, or a list of names (a string with commas); default: see
    :func:`default_subset`."""
    available = list(available)
    if subset is None:
        subset = default_subset(available)
    if isinstance(subset, str) and subset in _LEFT_OUT:
        return [s for s in available if s not in _LEFT_OUT[subset]]
    names = [s.strip() for s in subset.split(",")] if isinstance(subset, str) else check_system_names(subset)
    if isinstance(subset, str) and len(names) == 1:
        raise InputError(f"unknown system subset {subset!r}; choose one of: {', '.join(SUBSETS)}, "
                         "or list the systems separated by commas")
    unknown = [s for s in names if s not in available and s]
    repeated = [s for k, s in enumerate(names) if s in names[:k]]
    if unknown or repeated or "" in names:
        what = ("holds an empty name" if "" in names else f"names {', '.join(map(repr, unknown))}, which "
                f"{'has' if len(unknown) == 1 else 'have'} no human score" if unknown else
                f"repeats {', '.join(map(repr, dict.fromkeys(repeated)))}")
        raise InputError(f"the system list {', '.join(map(repr, names))} {what}; the systems with human scores are: "
                         f"{', '.join(available)}")
    return [s for s in available if s in names]


def is_system_list(subset: str | Sequence[str] | None) -> bool:
    """Whether ``subset`` lists systems by name (a list, or names separated by commas), not a
    named subset or the default."""
    return subset is not None and not (isinstance(subset, str) and subset in _LEFT_OUT)


def subset_name(subset: str | Sequence[str] | None, available: Collection[str]) -> str:
    """The name shown for a subset (the default resolved; a list as given)."""
    if subset is None:
        return default_subset(available)
    return subset if isinstance(subset, str) else ",".join(subset)


@dataclass
class SystemChoice:
    """The systems to correlate, the subset's name, and what the user should hear about them."""

    subset: str
    systems: list[str]
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def choose_systems(available: Sequence[str], subset: str | Sequence[str] | None, scored: Collection[str], *,
                   what: str = "an output file", where: str = "", system_level: bool = True) -> SystemChoice:
    """The systems of ``subset`` of ``available`` (the systems with human scores, in their
    order) that are ``scored`` (have ``what``: an output file, a score from every metric).

    Scored systems outside the subset, and systems of a named subset that are not scored, are
    left out with a note; a system named in a list but not scored is an error. Fewer than 3
    systems is an error; at the system level, fewer than 5 gives a warning."""
    chosen = subset_systems(available, subset)
    name = subset_name(subset, available)
    of = f" of {where}" if where else ""
    notes = []
    outside = [s for s in available if s in scored and s not in chosen]
    if outside:
        notes.append(f"left out (not in system subset {name!r}{of}): {', '.join(outside)}")
    missing = [s for s in chosen if s not in scored]
    if missing and is_named_list(subset):
        raise InputError(f"systems named by --systems without {what}: {', '.join(missing)}")
    if missing:
        notes.append(f"left out {plural(len(missing), 'system')} without {what}: {', '.join(missing)} ({EXPLICIT_HINT})")
    systems = [s for s in chosen if s in scored]
    if len(systems) < MIN_SYSTEMS:
        listed = f": {', '.join(systems)}" if systems else ""
        raise InputError(f"a correlation needs at least {MIN_SYSTEMS} systems, got {len(systems)}{listed} "
                         f"(subset {name!r}{of})")
    warnings = []
    if system_level and len(systems) < FEW_SYSTEMS:
        warnings.append(f"the correlations rest on {len(systems)} systems only: with fewer than {FEW_SYSTEMS}, "
                        "one system moves them a lot")
    return SystemChoice(name, systems, notes, warnings)
