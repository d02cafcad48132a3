"""A small command for CLEME until ``gecmetric cleme`` exists (the benchmark times it):

    python -m gecmetrics.cleme --ref REF.m2 --hyp HYP.m2 [HYP.m2 ...] [--metric cleme|cleme2]
        [--assumption dependent|independent] [--level corpus|sentence] [--unweighted] [-b BETA] [-v]

prints a header and one tab-separated line per hypothesis (4 decimals). Bad input: one line on
standard error, exit code 2.
"""
from __future__ import annotations

import argparse
import sys

from ..errors import InputError
from ..m2.format import read_m2
from .metric import CLEME, CLEME2
from .visualize import format_chunk_tables

CLEME_COLUMNS = ("f", "precision", "recall", "accuracy", "tp", "fp", "fn", "tn")
CLEME2_COLUMNS = ("aggregate", "hit", "wrong", "under", "over", "tp", "fp", "fn", "tn")


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m gecmetrics.cleme", description=__doc__.split("\n\n")[0])
    parser.add_argument("--ref", required=True, help="reference M2 file (one or more annotators)")
    parser.add_argument("--hyp", required=True, nargs="+", help="hypothesis M2 files (one annotator)")
    parser.add_argument("--metric", choices=("cleme", "cleme2"), default="cleme")
    parser.add_argument("--assumption", choices=("dependent", "independent"), default="dependent")
    parser.add_argument("--level", choices=("corpus", "sentence"), default="corpus")
    parser.add_argument("--unweighted", action="store_true", help="count chunks instead of length weights")
    parser.add_argument("-b", "--beta", type=float, default=0.5, help="F-beta's beta (CLEME only; default 0.5)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each sentence's chunk table first")
    return parser.parse_args(argv)


def run(argv: list[str] | None = None) -> int:
    """Score every hypothesis; return the exit code."""
    args = _arguments(argv)
    options = {"assumption": args.assumption, "level": args.level, "weighted": not args.unweighted}
    try:
        metric = CLEME(**options, beta=args.beta) if args.metric == "cleme" else CLEME2(**options)
        columns = CLEME_COLUMNS if args.metric == "cleme" else CLEME2_COLUMNS
        prepared = metric.prepare(read_m2(args.ref), args.ref)
        lines = ["\t".join(("hypothesis", *columns))]
        for path in args.hyp:
            hypothesis = read_m2(path)
            if args.verbose:
                sys.stdout.write(format_chunk_tables(metric.partitions(prepared, hypothesis, path)))
            result = metric.score(metric.statistics(prepared, hypothesis, path))
            values = result.scores
            lines.append("\t".join([path, *(f"{values[name]:.4f}" for name in columns)]))
    except InputError as error:
        sys.stderr.write(f"error: {error}\n")
        return 2
    print("\n".join(lines))
    print(f"# {metric.signature}")
    return 0


if __name__ == "__main__":
    sys.exit(run())
