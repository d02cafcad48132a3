"""What ``gecmetric m2 score`` prints, as the NUS m2scorer does: a table of P/R/F per system,
per-sentence P/R/F (with the annotator the corpus choice keeps), and with -v per sentence its
edits and the running counts."""
from __future__ import annotations

import warnings
from typing import Any, Iterator, Sequence

from ...core import fscore
from ...core.edits.blocks import ALTERNATIVE_SEPARATOR, DELETION, Edit
from ...core.edits.lattice import GoldEdit, SystemEdit, matched_gold
from ...core.table import number_label
from ...core.edits.maxmatch import python2_strip
from ...core.table import ScoreFormat, Table, python2_str, scaled, unit_header
from .maxmatch import M2Result, SentenceDetail, precision_recall_f

# The -v report is the m2scorer's (Python 2) print statements: texts as Python 2 writes a unicode
# string's repr (u'...', non-ASCII escaped), except the empty texts it makes by joining no tokens
# (or reads as -NONE-), byte strings: ''; numbers as Python 2's str().


def _unicode(text: str) -> str:
    return "u" + ascii(text)


def _joined(text: str) -> str:
    """A text the official joins from tokens: a byte string when there are none."""
    return _unicode(text) if text else "''"


def _edit(edit: SystemEdit) -> str:
    return f"({edit.start}, {edit.end}, {_joined(edit.original)}, {_joined(edit.correction)})"


def _edits(edits: Sequence[SystemEdit]) -> str:
    return "[" + ", ".join(map(_edit, edits)) + "]"


def _gold(edits: Sequence[GoldEdit], lines: Sequence[Edit]) -> str:
    """Gold edits as the official reads them: each correction stripped (unicode), ``-NONE-`` ''."""
    return "[" + ", ".join(
        f"({g.start}, {g.end}, {_joined(g.original)}, ["
        + ", ".join("''" if raw == DELETION else _unicode(text)
                    for raw, text in zip(line.correction.split(ALTERNATIVE_SEPARATOR), g.corrections)) + "])"
        for g, line in zip(edits, lines)) + "]"


def _adjacency_marks(system: Sequence[SystemEdit], gold: Sequence[GoldEdit]) -> list[str]:
    """What the official's matchSeq prints for each match (of a correct edit) that is a deletion
    next to a system insertion, or an insertion next to a system deletion (the neighbours as the
    report shows them, :meth:`SystemEdit.shrunk`): ``!`` when such a neighbour matches a gold
    edit too, else ``&`` (a deletion) or ``*`` (an insertion)."""
    marks: list[str] = []
    starting: dict[int, list[SystemEdit]] = {}
    ending: dict[int, list[SystemEdit]] = {}
    for other in system:  # indexed: a long line may have thousands of edits
        starting.setdefault(other.start, []).append(other)
        ending.setdefault(other.end, []).append(other)
    for edit, found in zip(system, matched_gold(system, gold)):
        insertion = edit.start == edit.end
        if not found or not (insertion or not edit.correction.strip()):
            continue
        near = [other.shrunk() for other in starting.get(edit.end, []) + ending.get(edit.start, [])]
        # next to an insertion: deletions; next to a deletion: insertions
        near = [s for s in near if ((s.start < s.end and s.correction == "") if insertion else s.start == s.end)]
        if near:
            adjacent_match = any(g.matches(s) for s in near for g in gold)
            marks += [f"{'!' if adjacent_match else '*' if insertion else '&'} {_edit(edit)}"] * len(found)
    return marks


def _annotator_lines(detail: SentenceDetail, slot: int, totals: Sequence[int], beta: float) -> list[str]:
    """The official's lines for one annotator of a sentence: its edits and the corpus counts and
    P/R/F with this annotator's counts added to the counts kept so far (``totals``)."""
    system, gold, correct = detail.system_edits[slot], detail.gold_edits[slot], detail.correct_edits[slot]
    counts = (totals[0] + len(correct), totals[1] + len(system), totals[2] + len(gold))
    p, r, _ = precision_recall_f(*map(float, counts), beta)
    f = fscore.MAXMATCH.keys(fscore.ScalarOps, (0, 0, 0), counts, beta)[0]  # the F the choice compares
    return [f">> Annotator: {detail.annotators[slot]}", *_adjacency_marks(system, gold),
            f"SOURCE        : {python2_strip(detail.source)}",
            f"HYPOTHESIS    : {python2_strip(detail.hypothesis)}",
            f"EDIT SEQ      : {_edits([edit.shrunk() for edit in system])}",
            f"GOLD EDITS    : {_gold(gold, detail.gold_lines[slot])}",
            f"CORRECT EDITS : {_edits(correct)}",
            f"# correct     : {counts[0]}", f"# proposed    : {counts[1]}", f"# gold        : {counts[2]}",
            f"precision     : {python2_str(p)}", f"recall        : {python2_str(r)}",
            f"f_{beta:.1f}         : {python2_str(f)}",
            "-------------------------------------------"]


def verbose_text(result: M2Result) -> str:
    """The m2scorer's -v report of one system (the result's ``details`` filled), as it prints
    it: per sentence, each annotator tried, then the one kept; then the corpus counts and P/R/F."""
    lines: list[str] = []
    totals = (0, 0, 0)
    for index, detail in enumerate(result.details, start=1):
        for slot in range(len(detail.annotators)):
            lines += _annotator_lines(detail, slot, totals, result.beta)
        lines += [f">> Chosen Annotator for line {index} : {detail.annotators[detail.chosen]}", ""]
        slot = detail.chosen
        totals = (totals[0] + len(detail.correct_edits[slot]), totals[1] + len(detail.system_edits[slot]),
                  totals[2] + len(detail.gold_edits[slot]))
    p, r, f = precision_recall_f(*map(float, totals), result.beta)
    return "\n".join([*lines, f"CORRECT EDITS  : {totals[0]}", f"PROPOSED EDITS : {totals[1]}",
                      f"GOLD EDITS     : {totals[2]}", f"P = {python2_str(p)}", f"R = {python2_str(r)}",
                      f"F_{result.beta:.1f} = {python2_str(f)}"])


class M2Report:
    """The m2scorer's table (system, precision, recall, F-beta as fractions), and per-sentence
    lines chunk by chunk (the annotator choice of a sentence depends on the counts before it:
    the report keeps them between chunks)."""

    table_format = "tsv"  # the m2scorer's lines: tab-separated

    def __init__(self, scale: float = 1.0, category_level: int | None = None) -> None:
        self.totals: dict[str, tuple[int, int, int]] = {}
        self.scale = scale
        self.category_level = category_level
        """-cat: the corpus table has a row per system and error type group (then its total)."""

    def header(self, beta: float) -> list[str]:
        return [unit_header(name, self.scale) for name in ("precision", "recall", f"f{number_label(beta)}")]

    def corpus_text(self, metrics: Sequence[Any], names: Sequence[str], results: Sequence[list], digits: int,
                    verbose: bool) -> Table:
        rounds_to = metrics[0].rounds_to  # at 4 fraction decimals the m2scorer's figures
        if self.category_level is not None:
            _warn_foreign_groups([r[0] for r in results], self.category_level)
            return type_table(names, [r[0] for r in results], self.category_level, self.scale, digits, rounds_to)
        printed = ScoreFormat.of(metrics[0], self.scale)
        rows = [[name, *(printed.cell(x, digits) for x in (r[0].precision, r[0].recall, r[0].f))]
                for name, r in zip(names, results)]
        return Table(["system", *self.header(metrics[0].settings.beta)], rows)

    def sentence_lines(self, metric: Any, chunk: Any, names: Sequence[str], statistics: list, scores: list,
                       digits: int, verbose: bool) -> Iterator[str]:
        if chunk.offset == 0:
            yield "\t".join(["system", "sentence", *self.header(metric.settings.beta)])
        scores = [metric.sentence_from_statistics(s, self.totals.get(name, (0, 0, 0)))
                  for name, s in zip(names, statistics)]
        printed = ScoreFormat.of(metric, self.scale)  # as the corpus table: at 4 fraction decimals the m2scorer's
        for d in range(chunk.size):
            for name, s in zip(names, scores):
                yield f"{name}\t{chunk.offset + d + 1}\t" + "\t".join(
                    printed.cell(x, digits) for x in (s.precision[d], s.recall[d], s.scores[d]))
        self.totals.update((name, tuple(int(x) for x in s.totals)) for name, s in zip(names, scores))


def _warn_foreign_groups(results: Sequence[M2Result], level: int) -> None:
    """A warning when -cat 1 or 2 groups types that are not ERRANT's (NUCLE's 'ArtOrDet' of the
    CoNLL-2014 gold gave the groups 'A' and 'tOrDet'), as m2 compare and errant warn."""
    from ...core.edits.compare import EditComparison
    from ..edit_comparison import foreign_groups

    note = foreign_groups(EditComparison(), results, level) if level in (1, 2) else None  # (-cat 3: as they are)
    if note is not None:
        warnings.warn(note)


def type_table(names: Sequence[str], results: Sequence[M2Result], level: int, scale: float = 1.0,
               digits: int = 4, rounds_to: int | None = None) -> Table:
    """A row per system and error type group of the -cat ``level`` (the gold M2's types, see
    docs/m2.md): TP, FP, FN and their P, R, F; then the system's total: correct, proposed -
    correct, gold - correct and its P, R, F (the macro average at this level with --macro);
    ``rounds_to``: the metric's (:func:`gecmetrics.core.table.scaled`)."""
    beta = results[0].beta if results else 0.5
    header = ["system", "category", "TP", "FP", "FN",
              *(unit_header(name, scale) for name in ("precision", "recall", f"f{number_label(beta)}"))]
    rows = []
    for name, result in zip(names, results):
        for error_type, c in sorted(result.grouped_categories(level).items()):
            scores = precision_recall_f(c.tp, c.tp + c.fp, c.tp + c.fn, beta)
            rows.append([name, error_type, str(c.tp), str(c.fp), str(c.fn),
                         *(scaled(x, digits, scale, rounds_to=rounds_to) for x in scores)])
        counts = (result.correct, result.proposed - result.correct, result.gold - result.correct)
        rows.append([name, "total", *map(str, counts),
                     *(scaled(x, digits, scale, rounds_to=rounds_to) for x in result.overall(level))])
    notes = ["P, R, F of total: macro averages over the groups above" if any(r.macro for r in results) else ""]
    return Table(header, rows, notes=[n for n in notes if n], left=(0, 1))
