"""``compare --all-pairs``: every pair of systems tested under each metric column, the p-values
corrected, and the clusters printed (the test itself is :mod:`gecmetrics.stats.multiple`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

import click

from ..core.table import (ScoreFormat, all_pairs_legend, all_pairs_pairs_table, all_pairs_systems_table,
                          all_pairs_title, clusters_line, with_metric_column)
from ..output.formats import prose, render
from .common import echo_json
from .shared import chosen_format
from .significance import chosen_test, formats_of, relabelled, unique_names

if TYPE_CHECKING:  # imported when a test runs
    from ..core.resampling import Resampler
    from ..stats.multiple import AllPairsResult


def run_all_pairs_list(tests: Sequence[tuple[Resampler, Sequence[Any]]], names: Sequence[str],
                       paired_bs: int | None, paired_ar: int | None, seed: int, correction: str = "holm",
                       digits: int = 2, as_json: bool = False, show_signature: bool = False,
                       conflicts: Mapping[str, bool] | None = None,
                       printed: ScoreFormat | Sequence[ScoreFormat] = ScoreFormat(),
                       higher_is_better: Sequence[bool] | None = None,
                       labels: Sequence[str] | None = None) -> list[AllPairsResult]:
    """Test every pair of hypothesis files under each (resampler, per-file statistics) column,
    with the multiple-comparison ``correction`` (holm, bh, none), and print per column the
    systems with their clusters, the pairs with raw and adjusted p-values, and the clusters
    (``--all-pairs``; ``printed`` and ``conflicts`` as in :func:`run_paired_test_list`;
    ``higher_is_better``: per column, the metric's direction, which orders the clusters;
    ``labels`` as there)."""
    method, samples = chosen_test(paired_bs, paired_ar, names, conflicts, "an all-pairs test needs at least two "
                                   "hypothesis files")
    from ..stats.multiple import all_pairs_test, check_correction

    correction = check_correction(correction)
    unique = unique_names(names)
    directions = list(higher_is_better) if higher_is_better is not None else [True] * len(tests)
    results = [all_pairs_test(r, dict(zip(unique, statistics)), method, samples, seed, correction,
                              higher_is_better=better) for (r, statistics), better in zip(tests, directions)]
    formats = formats_of(printed, len(results))
    fmt = "json" if as_json else chosen_format("text")
    if fmt == "json":
        echo_json([result.to_dict(f.factor) for result, f in zip(results, formats)])
    else:
        blocks = []
        for result, f in zip(relabelled(results, labels), formats):
            tables = [all_pairs_systems_table(result, digits, f), all_pairs_pairs_table(result, digits, f)]
            if fmt == "tsv":  # the tables alone, a blank line between them, each row naming its metric
                blocks.append("\n\n".join(render(with_metric_column(t, result.metric), fmt) for t in tables))
            else:
                blocks.append("\n".join([prose(all_pairs_title(result), fmt), *(render(t, fmt) for t in tables),
                                          prose(clusters_line(result), fmt), prose(all_pairs_legend(result), fmt)]))
        click.echo("\n\n".join(blocks))
    if show_signature:
        for result in results:
            click.echo(result.signature, err=True)
    return results
