"""Build the optional compiled loops: the counting core (gecmetrics/core/_counting.c), the
ERRANT-style alignment (gecmetrics/core/_align.c) and ChERRANT's character alignment table
(gecmetrics/core/_zhalign.c) and the running-F choice of the paired tests (gecmetrics/core/_running.c).

Everything else is in pyproject.toml. The extensions are optional: without a C compiler the
install still succeeds and gecmetrics uses its NumPy / pure-Python implementation of the same
loops (slower, same numbers); `gecmetric --version` says which one is in use.
"""
from setuptools import Extension, setup

setup(ext_modules=[
    Extension("gecmetrics.core._counting", ["gecmetrics/core/_counting.c"], optional=True, extra_compile_args=["-O2"]),
    # no fused multiply-add: the alignment's costs must round exactly as Python's floats do
    Extension("gecmetrics.core._align", ["gecmetrics/core/_align.c"], optional=True,
              extra_compile_args=["-O2", "-ffp-contract=off"]),
    # ChERRANT's character alignment table; the same no-FMA rule for its costs
    Extension("gecmetrics.core._zhalign", ["gecmetrics/core/_zhalign.c"], optional=True,
              extra_compile_args=["-O2", "-ffp-contract=off"]),
    # the running-F choice of every bootstrap resample; the same no-FMA rule for its F-scores
    Extension("gecmetrics.core._running", ["gecmetrics/core/_running.c"], optional=True,
              extra_compile_args=["-O2", "-ffp-contract=off"]),
])
