"""Build the optional compiled loops: the counting core (gecmetrics/_counting.c), the
ERRANT-style alignment (gecmetrics/_align.c), ChERRANT's character alignment table
(gecmetrics/_zhalign.c) and the float32 matrix product that rounds as
spaCy's BLIS does on machines where BLIS runs its generic kernel (gecmetrics/_gemm.c).

Everything else is in pyproject.toml. All four extensions are optional: without a C compiler the
install still succeeds and gecmetrics uses its NumPy / pure-Python implementation of the same
loops (slower, same numbers); `gecmetric --version` says which one is in use.
"""
from setuptools import Extension, setup

setup(ext_modules=[
    Extension("gecmetrics._counting", ["gecmetrics/_counting.c"], optional=True, extra_compile_args=["-O2"]),
    # no fused multiply-add: the alignment's costs must round exactly as Python's floats do
    Extension("gecmetrics._align", ["gecmetrics/_align.c"], optional=True,
              extra_compile_args=["-O2", "-ffp-contract=off"]),
    # ChERRANT's character alignment table; the same no-FMA rule for its costs
    Extension("gecmetrics._zhalign", ["gecmetrics/_zhalign.c"], optional=True,
              extra_compile_args=["-O2", "-ffp-contract=off"]),
    # each product and sum rounded on its own, as BLIS's generic kernel (no fused multiply-add)
    Extension("gecmetrics._gemm", ["gecmetrics/_gemm.c"], optional=True,
              extra_compile_args=["-O2", "-ffp-contract=off"]),
])
