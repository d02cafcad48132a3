"""Reference sentences from M2 annotation (SPEC 4.2).

Each annotator's edits are applied to the source tokens from left to right. The CoNLL-2014
combined file hides a trap: its merge script dropped an annotator's edit set for a sentence when
it equalled annotator 0's, so a block without any line for annotator k (k > 0, present
elsewhere in the file) means "same edits as annotator 0". Reading it as "no edits" changes 88
lines of REF1 and the published GLEU+/GREEN numbers; by default such blocks are filled from
annotator 0 and counted, so the caller can report it.
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from typing import Any, Sequence, Union

from ..core.checks import check_count, check_flag
from ..errors import InputError, plural
from .atomic import check_outputs, output_group
from .m2 import Block, Edit, check_blocks, check_built_blocks, read_m2
from .text import check_distinct, check_path, check_sequence, first_repeated

M2Input = Union[str, "os.PathLike[str]", Sequence[Block]]


@dataclass
class M2References:
    """Sources and references built from one or more M2 files.

    ``labels[k]`` names reference ``k``: the annotator id when one file was given, else the
    position of the (file, annotator) pair over all files (0, 1, ... in the order given).
    ``filled_blocks[k]`` counts the blocks where that annotator has no line (filled from
    annotator 0 unless ``absent_as_unchanged``); ``filled_changed[k]`` counts those where
    annotator 0's edits change the sentence, i.e. where the two readings give different lines.
    """

    sources: list[str]
    references: list[list[str]]
    labels: list[int]
    filled_blocks: list[int] = field(default_factory=list)
    filled_changed: list[int] = field(default_factory=list)
    absent_as_unchanged: bool = False
    inputs: list[str] = field(default_factory=list)
    """The M2 files read (paths; none for parsed blocks): :func:`write_references` never writes
    over one of them."""
    origins: list[tuple[str, int]] = field(default_factory=list)
    """Each reference's (M2 input's name, annotator id in it): with several files its label is a
    position, and "annotator 0" of a filled block is its own file's."""

    def reference(self, label: int) -> list[str]:
        """The reference lines of one label (annotator id, or position with several files)."""
        return self.references[self.labels.index(label)]


def apply_edits(tokens: Sequence[str], edits: Sequence[Edit], name: str = "<m2>", line: int | None = None) -> list[str]:
    """Apply one annotator's edits to source tokens, left to right, shifting later offsets.

    Noop lines and -1 -1 spans are ignored; '-NONE-' or an empty correction deletes the span;
    of '||' alternatives the first is used. Overlapping edits make the reference ill-defined
    and raise InputError.
    """
    if isinstance(tokens, (str, bytes)):  # (its characters were taken as the tokens)
        raise InputError(f"apply_edits takes the source's tokens (a list: line.split()), not a {type(tokens).__name__}")
    changes = sorted((e for e in edits if not e.is_noop), key=lambda e: (e.start, e.end))
    result = list(tokens)
    shift = 0
    previous_end = 0
    for edit in changes:
        if edit.start < previous_end:
            raise InputError(
                f"edits {edit.start} {edit.end} of annotator {edit.annotator} overlap an earlier edit "
                f"ending at {previous_end}: the reference is ill-defined", name, line)
        replacement = edit.replacement.split()
        result[edit.start + shift:edit.end + shift] = replacement
        shift += len(replacement) - (edit.end - edit.start)
        previous_end = edit.end
    return result


def file_annotators(blocks: Sequence[Block]) -> list[int]:
    """All annotator ids with at least one line anywhere in the file (at least [0]); ``blocks``:
    a list of M2 blocks (:func:`~gecmetrics.io.m2.read_m2`), anything else an InputError."""
    blocks = check_sequence(blocks, "blocks", "M2 blocks (gecmetrics.io.m2.read_m2)")
    check_built_blocks(blocks, "blocks")
    ids = {edit.annotator for block in blocks for edit in block.edits}
    return sorted(ids) if ids else [0]


def _load(m2_input: M2Input, position: int) -> tuple[list[Block], str]:
    if isinstance(m2_input, (str, os.PathLike)):
        path = os.fspath(m2_input)
        return check_blocks(read_m2(path), path), path
    name = f"<m2 input {position}>"
    return check_blocks(m2_input, name), name


def _inputs(inputs: Sequence[M2Input] | M2Input) -> list[M2Input]:
    """The M2 inputs as a list (one path or block list alone is one input): at least one, each
    file once."""
    if isinstance(inputs, (str, os.PathLike)) or (isinstance(inputs, Sequence) and inputs
                                                   and isinstance(inputs[0], Block)):
        inputs = [inputs]  # type: ignore[list-item]
    inputs = check_sequence(inputs, "the M2 input", "M2 paths or block lists (or one of them)")
    if len(inputs) == 0:
        raise InputError("no M2 input given")
    check_distinct([item for item in inputs if isinstance(item, (str, os.PathLike))], "as an M2 input: its annotators "
                   "would be references twice, and the scores would change (give each M2 file once)")
    return list(inputs)


def m2_references(inputs: Sequence[M2Input] | M2Input, annotators: Sequence[int] | None = None,
                  absent_as_unchanged: bool = False, max_references: int | None = None) -> M2References:
    """Build the source and one reference per annotator from M2 files or parsed blocks.

    ``inputs``: one M2 (path or block list) or several; several files must have the same source
    sentences, and their annotators become references 0, 1, ... in order (the CoNLL-2014
    ``official-2014.0.m2`` + ``official-2014.1.m2`` give REF0, REF1). ``annotators`` (a sequence
    of integers) keeps only those labels, in the order given. ``absent_as_unchanged`` reads a
    block without lines for an annotator as "no edits" instead of "same edits as annotator 0"
    (see module docstring).
    ``max_references``: more references than this is an InputError, raised before any is built
    (:func:`write_references` writes at most :data:`MAX_REFERENCE_FILES` files unless asked).
    """
    check_flag(absent_as_unchanged, "absent_as_unchanged")  # ("false" read as true changed REF1 without a word)
    if max_references is not None:
        max_references = check_count(max_references, "max_references")
    loaded = [_load(item, k) for k, item in enumerate(_inputs(inputs))]
    first_blocks, first_name = loaded[0]
    # the tokens joined as every reference line is: a stray character of the S line such as a
    # lone carriage return would otherwise stay in the source and vanish from the references
    sources = [" ".join(block.tokens) for block in first_blocks]
    for blocks, name in loaded[1:]:
        if len(blocks) != len(first_blocks):
            raise InputError(f"has {plural(len(blocks), 'sentence')} but {first_name} has {len(first_blocks)}", name)
        for block, first in zip(blocks, first_blocks):
            if block.tokens != first.tokens:
                raise InputError(f"source sentence differs from the one in {first_name} "
                                 f"(line {first.line})", name, block.line)

    file_ids = [file_annotators(blocks) for blocks, _ in loaded]
    pairs = [(blocks, name, annotator, 0 in ids) for (blocks, name), ids in zip(loaded, file_ids)
             for annotator in ids]
    all_labels = [pair[2] for pair in pairs] if len(loaded) == 1 else list(range(len(pairs)))
    wanted = list(all_labels) if annotators is None else _annotator_ids(annotators)
    position = {label: k for k, label in enumerate(all_labels)}
    for label in wanted:
        if label not in position:
            shown = ", ".join(map(str, all_labels[:20])) + (f", ... ({len(all_labels):,} in all)"
                                                           if len(all_labels) > 20 else "")
            raise InputError(f"no annotator {label} in the M2 input (available: {shown})")
    check_reference_count(len(wanted), max_references)
    references: list[list[str]] = []
    filled_blocks: list[int] = []
    filled_changed: list[int] = []
    origins: list[tuple[str, int]] = []
    for label in wanted:
        blocks, name, annotator, has_0 = pairs[position[label]]
        origins.append((name, annotator))
        lines, filled, changed = _annotator_reference(blocks, annotator, annotator != 0 and has_0, name,
                                                      absent_as_unchanged)
        references.append(lines)
        filled_blocks.append(filled)
        filled_changed.append(changed)
    paths = [name for (_, name), item in zip(loaded, inputs) if isinstance(item, (str, os.PathLike))]
    return M2References(sources, references, wanted, filled_blocks, filled_changed, absent_as_unchanged, paths, origins)


def _annotator_ids(annotators: Sequence[int]) -> list[int]:
    """The annotator ids asked for: a sequence of integers >= 0, each once, at least one (one
    string, even "0", is not the annotator 0; an id is never read from text)."""
    labels = _distinct_ids(annotators, "annotators", "-a/--annotator, annotators")
    if not labels:
        raise InputError("annotators is empty: name at least one annotator (None: all of them)")
    return labels


def _distinct_ids(values: Any, name: str, given_as: str) -> list[int]:
    """Annotator ids given as a sequence (the argument ``name``; ``given_as``: its flag and
    name, for the message): integers >= 0, each once (twice: the same reference twice, written
    twice over one file name)."""
    labels = [check_count(label, f"an annotator id ({name})", minimum=0)
              for label in check_sequence(values, name, "annotator ids (integers)")]
    repeated = first_repeated(labels)
    if repeated is not None:
        raise InputError(f"annotator {repeated} is asked for twice ({given_as})")
    return labels


def _annotator_reference(blocks: Sequence[Block], annotator: int, fill_from_0: bool, name: str,
                         absent_as_unchanged: bool) -> tuple[list[str], int, int]:
    """Reference lines of one annotator; with ``fill_from_0`` (annotator k > 0 of a file that
    also has annotator 0), also the number of blocks where it has no line (filled from annotator
    0 unless ``absent_as_unchanged``) and how many of those annotator 0 changed."""
    lines = []
    filled = changed = 0
    for block in blocks:
        tokens = block.tokens
        own_edits = block.edits_of(annotator)
        if own_edits or not fill_from_0:
            corrected = apply_edits(tokens, own_edits, name, block.line)
        else:
            filled += 1
            as_annotator_0 = apply_edits(tokens, block.edits_of(0), name, block.line)
            if as_annotator_0 != tokens:
                changed += 1
            corrected = tokens if absent_as_unchanged else as_annotator_0
        lines.append(" ".join(corrected))
    return lines, filled, changed


def reference_paths(labels: Sequence[int], directory: str | None = None, prefix: str | None = None) -> tuple[str, list[str]]:
    """Output paths: ``DIR/INPUT`` and ``DIR/REF<label>`` (the CoNLL-2014 names), or
    ``P.src`` and ``P.ref<label>`` with a prefix. ``labels``: annotator ids (integers >= 0, each
    once); a folder or prefix that is no path is an InputError."""
    labels = _distinct_ids(labels, "labels", "labels")
    directory = None if directory is None else check_path(directory, "output folder")
    if prefix is not None and prefix != "":  # ('': the message below says what it would write)
        prefix = check_path(prefix, "prefix")
    if (directory is None) == (prefix is None):
        raise InputError("give exactly one of an output directory or a prefix")
    if prefix is not None and not os.path.basename(prefix).strip():  # "", "dir/": ".src", "dir/.src"
        raise InputError(f"--prefix P writes P.src and P.ref<annotator>: {prefix!r} has no name before them; for a "
                         "folder, use -o DIR")
    if directory is not None:
        return os.path.join(directory, "INPUT"), [os.path.join(directory, f"REF{label}") for label in labels]
    return f"{prefix}.src", [f"{prefix}.ref{label}" for label in labels]


def other_references(written: Sequence[str], directory: str | None = None, prefix: str | None = None) -> list[str]:
    """Reference files beside the ones just ``written`` that a glob of them would also take
    (``DIR/REF*`` or ``P.ref*``), sorted: left by an earlier run (a gold with more annotators,
    or other -a), they would be read as one more reference of this gold. Nothing is removed."""
    if directory is not None:
        shown, start = os.fspath(directory), "REF"
    elif prefix is not None:
        shown, start = os.path.dirname(os.fspath(prefix)), os.path.basename(os.fspath(prefix)) + ".ref"
    else:
        return []
    written_names = {os.path.basename(path) for path in written}
    try:
        names = os.listdir(shown or ".")
    except OSError:
        return []
    return sorted(os.path.join(shown, name) for name in names if name.startswith(start) and name not in written_names
                  and os.path.isfile(os.path.join(shown, name)))


MAX_REFERENCE_FILES = 100
"""Reference files :func:`write_references` writes unless ``many_files=True``: M2 files have a
few annotators (CoNLL-2014: 2, BEA-2019 dev: up to 5); an annotator id per edit (a damaged or
generated file) would otherwise fill a folder with thousands of files."""


def check_reference_count(count: int, max_references: int | None = MAX_REFERENCE_FILES) -> None:
    """More than ``max_references`` references (None: no bound) is an InputError saying how to
    keep fewer or allow them all."""
    if max_references is not None and count > max_references:
        raise InputError(f"{count:,} annotators would make {count:,} reference files, more "
                         f"than {max_references} (gecmetrics.io.m2_references.MAX_REFERENCE_FILES): keep some "
                         "with -a/--annotator, or write them all with --many-files (Python: many_files=True)")


def write_references(result: M2References, directory: str | None = None, prefix: str | None = None,
                     many_files: bool = False) -> list[str]:
    """Write the source and reference files (one sentence per line, UTF-8); return their paths.
    More than :data:`MAX_REFERENCE_FILES` references is an error unless ``many_files``; so is an
    output path that is one of the M2 files read (``result.inputs``), checked before anything is
    written."""
    if not isinstance(result, M2References):
        raise InputError(f"write_references writes an M2References (gecmetrics.io.m2_references.m2_references), "
                         f"got {type(result).__name__}")
    for what, value in (("directory", directory), ("prefix", prefix)):
        if value is not None and not isinstance(os.fspath(value) if isinstance(value, os.PathLike) else value, str):
            raise InputError(f"write_references: {what} must be a path (a string or os.PathLike), "
                             f"got {type(value).__name__}")
    check_flag(many_files, "many_files")
    check_reference_count(len(result.labels), None if many_files else MAX_REFERENCE_FILES)
    if directory is not None and os.fspath(directory) == "":
        raise InputError("an empty folder name ('') where the output folder belongs: give the folder's path")
    source_path, reference_paths_ = reference_paths(result.labels, directory, prefix)
    check_outputs([("-o/--prefix", path) for path in (source_path, *reference_paths_)], result.inputs)
    made = _make_folder(directory) if directory is not None else []
    written = [source_path, *reference_paths_]
    # all the files or none: a failed REF3 leaves no new INPUT, REF0 ... (nor the folders made for
    # them); a failed write is the OSError naming its file (the command's one line and exit 1)
    try:
        with output_group() as group:
            for path, lines in zip(written, [result.sources, *result.references]):
                with group.output(path) as handle:
                    handle.writelines(line + "\n" for line in lines)
    except BaseException:
        _remove_folders(made)
        raise
    return written


def _make_folder(directory: str) -> list[str]:
    """Make ``directory`` and the missing folders above it; return those made, deepest first."""
    missing = []
    folder = os.path.abspath(directory)
    while not os.path.exists(folder):
        missing.append(folder)
        folder = os.path.dirname(folder)
    try:
        os.makedirs(os.path.abspath(directory), exist_ok=True)  # ("a/../b" made "a", left behind)
    except OSError as err:
        _remove_folders(missing)
        raise InputError(f"cannot make the folder: {err.strerror}", directory) from None
    return missing


def _remove_folders(folders: list[str]) -> None:
    for folder in folders:
        with contextlib.suppress(OSError):
            os.rmdir(folder)  # only an empty one
