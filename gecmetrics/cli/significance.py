"""``--paired-bs [N]`` / ``--paired-ar [N]`` for the scoring commands: options, and printing of
the paired test's table (the test itself is :mod:`gecmetrics.significance`)."""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import click

from ..errors import InputError
from ..report import dumps, percent, round_half_up, table
from ..significance import (DEFAULT_SAMPLES, SIGNIFICANCE_LEVEL, PairedTestResult, Resampler,
                            paired_test_from_statistics)

METHOD_TITLES = {"bs": "Paired bootstrap resampling", "ar": "Paired approximate randomization"}


def significance_options(add_seed: bool = True) -> Callable:
    """Add ``--paired-bs [N]`` and ``--paired-ar [N]`` (and ``--seed``, unless the command already
    has one: then that seed is also the test's)."""
    def decorate(func: Callable) -> Callable:
        if add_seed:
            func = click.option("--seed", type=int, default=0, show_default=True,
                                help="Seed of the paired test's resampling (part of its signature).")(func)
        func = click.option("--paired-ar", "paired_ar", type=click.IntRange(1), is_flag=False,
                            flag_value=DEFAULT_SAMPLES["ar"], default=None, metavar="[N]",
                            help="Paired approximate randomization against the first hypothesis file: N trials "
                                 f"[default N: {DEFAULT_SAMPLES['ar']}], 95% intervals from 1000 bootstrap "
                                 "resamples.")(func)
        func = click.option("--paired-bs", "paired_bs", type=click.IntRange(1), is_flag=False,
                            flag_value=DEFAULT_SAMPLES["bs"], default=None, metavar="[N]",
                            help="Paired bootstrap resampling against the first hypothesis file: N resamples "
                                 f"[default N: {DEFAULT_SAMPLES['bs']}]; score, 95% interval, p-value "
                                 "(* when p < 0.05).")(func)
        return func
    return decorate


def unique_names(names: Sequence[str]) -> list[str]:
    """The file names as given, a file given twice getting ' (2)', ' (3)' ... appended."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out


def run_paired_tests(resamplers: Sequence[Resampler], names: Sequence[str], statistics: Sequence[Any],
                     paired_bs: int | None, paired_ar: int | None, seed: int, digits: int = 2,
                     as_json: bool = False, show_signature: bool = False,
                     conflicts: Mapping[str, bool] | None = None, scale: float = 100.0) -> list[PairedTestResult]:
    """Run the paired test of every resampler (one per beta or lambda) on the same statistics
    and print a table each (see :func:`run_paired_test_list`)."""
    return run_paired_test_list([(r, statistics) for r in resamplers], names, paired_bs, paired_ar, seed, digits,
                                as_json, show_signature, conflicts, scale)


def run_paired_test_list(tests: Sequence[tuple[Resampler, Sequence[Any]]], names: Sequence[str],
                         paired_bs: int | None, paired_ar: int | None, seed: int, digits: int = 2,
                         as_json: bool = False, show_signature: bool = False,
                         conflicts: Mapping[str, bool] | None = None,
                         scale: float = 100.0) -> list[PairedTestResult]:
    """Run each (resampler, per-file statistics) paired test and print a table each.

    ``conflicts`` names options that do not go with a paired test (e.g. ``--sentence``);
    ``scale`` is 100 for scores printed x100, 1 for fractions (``m2 score``)."""
    check_paired_options(paired_bs, paired_ar, conflicts)
    method, samples = ("bs", paired_bs) if paired_bs is not None else ("ar", paired_ar)
    if len(names) < 2:
        raise InputError("a paired test needs at least two hypothesis files: the first is the baseline")
    unique = unique_names(names)
    results = [paired_test_from_statistics(r, dict(zip(unique, statistics)), method, samples, seed)
               for r, statistics in tests]
    if as_json:
        click.echo(dumps([_result_json(result, scale) for result in results]))
    else:
        for k, result in enumerate(results):
            if k:
                click.echo()
            click.echo(format_paired_table(result, digits, scale))
    if show_signature:
        for result in results:
            click.echo(result.signature, err=True)
    return results


def check_paired_options(paired_bs: int | None, paired_ar: int | None,
                         conflicts: Mapping[str, bool] | None = None) -> None:
    """One test at a time, and not with options that print something else."""
    if paired_bs is not None and paired_ar is not None:
        raise InputError("choose one of --paired-bs and --paired-ar")
    for option, given in (conflicts or {}).items():
        if given:
            raise InputError(f"{option} does not go with --paired-bs/--paired-ar")


def _scaled(value: float, digits: int, scale: float) -> str:
    return percent(value, digits) if scale == 100 else round_half_up(scale * value, digits)


def format_paired_table(result: PairedTestResult, digits: int = 2, scale: float = 100.0) -> str:
    """A title line, then a table: system, score, 95% interval, mean +- half-width, p-value."""
    if result.method == "bs":
        how = f"{result.samples} resamples"
    else:
        how = f"{result.samples} trials, intervals from {result.confidence_samples} bootstrap resamples"
    title = (f"{METHOD_TITLES[result.method]} ({how}, seed {result.seed}): {result.metric}, "
             f"baseline {result.baseline.name}")
    rows = []
    for system in result.systems:
        low, high = system.interval
        if system.p_value is None:
            p_text = "baseline"
        else:
            p_text = f"{system.p_value:.4f}" + (" *" if system.significant else "")
        rows.append([system.name, _scaled(system.score, digits, scale),
                     f"[{_scaled(low, digits, scale)}, {_scaled(high, digits, scale)}]",
                     f"{_scaled(system.mean, digits, scale)} ± {_scaled(system.half_width, digits, scale)}", p_text])
    body = table(["system", "score", "95% CI", "mean ± CI/2", "p-value"], rows)
    note = f"* p < {SIGNIFICANCE_LEVEL:g} against the baseline"
    return "\n".join([title, body, note])


def _result_json(result: PairedTestResult, scale: float = 100.0) -> dict:
    return {"metric": result.metric, "method": result.method, "samples": result.samples,
            "confidence_samples": result.confidence_samples, "seed": result.seed,
            "baseline": result.baseline.name,
            "systems": [{"hypothesis": s.name, "score": scale * s.score, "mean": scale * s.mean,
                         "interval": [scale * s.interval[0], scale * s.interval[1]], "p_value": s.p_value,
                         "significant": s.significant} for s in result.systems],
            "signature": result.signature}
