"""Build the optional compiled counting loops (gecmetrics/_counting.c).

Everything else is in pyproject.toml. The extension is optional: without a C compiler the
install still succeeds and gecmetrics uses its NumPy implementation of the same loops
(slower, same numbers); `gecmetric --version` says which one is in use.
"""
from setuptools import Extension, setup

setup(ext_modules=[Extension("gecmetrics._counting", ["gecmetrics/_counting.c"], optional=True,
                             extra_compile_args=["-O2"])])
