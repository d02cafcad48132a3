"""``--paired-bs [N]`` / ``--paired-ar [N]`` for the scoring commands: options, and printing of
the paired test's table (the test itself is :mod:`gecmetrics.stats.significance`)."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import click

from ..errors import InputError
from ..core.table import PAIRED_TEST_LEGEND, ScoreFormat, paired_test_table, paired_test_title, with_metric_column
from ..output.formats import prose, render
from ..stats import DEFAULT_SAMPLES

if TYPE_CHECKING:  # imported when a test runs
    from ..core.resampling import Resampler
    from ..stats.significance import PairedTestResult
from .common import echo_json
from .numbers import INT, IntRange
from .shared import chosen_format


def significance_options(add_seed: bool = True) -> Callable:
    """Add ``--paired-bs [N]`` and ``--paired-ar [N]`` (and ``--seed``, unless the command already
    has one: then that seed is also the test's)."""
    def decorate(func: Callable) -> Callable:
        if add_seed:
            func = click.option("--seed", type=INT, default=0, show_default=True,
                                help="Seed of the paired test's resampling (part of its signature).")(func)
        func = click.option("--paired-ar", "paired_ar", type=IntRange(1), is_flag=False,
                            flag_value=DEFAULT_SAMPLES["ar"], default=None, metavar="[N]",
                            help="Paired approximate randomization against the first hypothesis file: N trials "
                                 f"[default N: {DEFAULT_SAMPLES['ar']}], 95% intervals from 1000 bootstrap "
                                 "resamples (one file: its interval alone).")(func)
        func = click.option("--paired-bs", "paired_bs", type=IntRange(1), is_flag=False,
                            flag_value=DEFAULT_SAMPLES["bs"], default=None, metavar="[N]",
                            help="Paired bootstrap resampling against the first hypothesis file: N resamples "
                                 f"[default N: {DEFAULT_SAMPLES['bs']}]; score, 95% interval, p-value "
                                 "(* when p < 0.05); one file: its score and interval alone.")(func)
        return func
    return decorate


def unique_names(names: Sequence[str]) -> list[str]:
    """The file names as given, a file given twice getting ' (2)', ' (3)' ... appended: the
    first number that names no file given (a file named 'AMU (2)' beside AMU given twice took
    that name's place, and a system was left out of the table)."""
    taken = set(names)
    seen: dict[str, int] = {}
    out = []
    for name in names:
        if name not in seen:
            seen[name] = 1
            out.append(name)
            continue
        number = seen[name] + 1
        while f"{name} ({number})" in taken:
            number += 1
        seen[name] = number
        taken.add(f"{name} ({number})")
        out.append(f"{name} ({number})")
    return out


def run_paired_tests(resamplers: Sequence[Resampler], names: Sequence[str], statistics: Sequence[Any],
                     paired_bs: int | None, paired_ar: int | None, seed: int, digits: int = 2,
                     as_json: bool = False, show_signature: bool = False,
                     conflicts: Mapping[str, bool] | None = None,
                     printed: ScoreFormat = ScoreFormat()) -> list[PairedTestResult]:
    """Run the paired test of every resampler (one per beta or lambda) on the same statistics
    and print a table each (see :func:`run_paired_test_list`)."""
    return run_paired_test_list([(r, statistics) for r in resamplers], names, paired_bs, paired_ar, seed, digits,
                                as_json, show_signature, conflicts, printed)


def run_paired_test_list(tests: Sequence[tuple[Resampler, Sequence[Any]]], names: Sequence[str],
                         paired_bs: int | None, paired_ar: int | None, seed: int, digits: int = 2,
                         as_json: bool = False, show_signature: bool = False,
                         conflicts: Mapping[str, bool] | None = None,
                         printed: ScoreFormat | Sequence[ScoreFormat] = ScoreFormat(),
                         labels: Sequence[str] | None = None) -> list[PairedTestResult]:
    """Run each (resampler, per-file statistics) paired test and print a table each.

    ``conflicts`` names options that do not go with a paired test (e.g. ``--sentence``);
    ``printed``: how the tested metric's scores print (``ScoreFormat.of(metric, scale)``: x100 or
    as fractions, as its tool rounds them), or one per test; ``labels``: the tests' names in the
    tables in place of their metrics' (``compare``'s column labels: two GLEU+ settings printed two
    tables of 'GLEU+')."""
    method, samples = chosen_test(paired_bs, paired_ar, names, conflicts)
    from ..stats.significance import paired_test_from_statistics

    unique = unique_names(names)
    results = [paired_test_from_statistics(r, dict(zip(unique, statistics)), method, samples, seed)
               for r, statistics in tests]
    formats = formats_of(printed, len(results))
    fmt = "json" if as_json else chosen_format("text")
    shown = relabelled(results, labels)  # (JSON keeps the metric's name, beside the signature that tells them apart)
    if fmt == "json":
        echo_json([result.to_dict(f.factor) for result, f in zip(results, formats)])
    elif fmt == "tsv":  # the tables alone, one per test, a blank line between them, each row naming its metric
        click.echo("\n\n".join(render(with_metric_column(paired_test_table(result, digits, f), result.metric), fmt)
                               for result, f in zip(shown, formats)))
    else:
        click.echo("\n\n".join("\n".join([prose(paired_test_title(result), fmt),
                                           render(paired_test_table(result, digits, f), fmt),
                                           prose(PAIRED_TEST_LEGEND, fmt)]) for result, f in zip(shown, formats)))
    if show_signature:
        for result in results:
            click.echo(result.signature, err=True)
    return results


def relabelled(results: list, labels: Sequence[str] | None) -> list:
    """Test results named by ``labels`` (one each), or as they are."""
    return results if labels is None else [dataclasses.replace(r, metric=label) for r, label in zip(results, labels)]


def chosen_test(paired_bs: int | None, paired_ar: int | None, names: Sequence[str],
                 conflicts: Mapping[str, bool] | None, too_few: str | None = None) -> tuple[str, int | None]:
    """The method and samples of the test asked for, the options checked; ``too_few``: the
    error when fewer than two files are given (an all-pairs test). Against the first file, one
    file alone is its score and 95% interval, with no test (as :func:`gecmetrics.paired_test`)."""
    check_paired_options(paired_bs, paired_ar, conflicts)
    if too_few is not None and len(names) < 2:
        raise InputError(too_few)
    return ("bs", paired_bs) if paired_bs is not None else ("ar", paired_ar)


def formats_of(printed: ScoreFormat | Sequence[ScoreFormat], count: int) -> list[ScoreFormat]:
    """One score format per test: those given, or the one given for every test."""
    return [printed] * count if isinstance(printed, ScoreFormat) else list(printed)


def check_paired_options(paired_bs: int | None, paired_ar: int | None,
                         conflicts: Mapping[str, bool] | None = None) -> None:
    """One test at a time, and not with options that print something else."""
    if paired_bs is not None and paired_ar is not None:
        raise InputError("choose one of --paired-bs and --paired-ar")
    from ..stats.significance import check_samples

    for method, samples in (("bs", paired_bs), ("ar", paired_ar)):  # the library's bounds, before any scoring
        if samples is not None:
            check_samples(method, samples)
    for option, given in (conflicts or {}).items():
        if given:
            raise InputError(f"{option} does not go with --paired-bs/--paired-ar")
