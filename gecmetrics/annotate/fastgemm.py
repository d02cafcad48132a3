"""spaCy's matrix products, same bits, fewer CPU seconds: where BLIS runs its generic kernel.

About half of the annotator's CPU is the float32 matrix products of spaCy's networks (tok2vec's
maxout layers, the parser's precomputed layer), which thinc hands to the BLIS library bundled
with spaCy. On CPUs that library does not recognise it selects its 'generic' sub-configuration,
whose kernel rounds every product and every sum on its own, summing over k in blocks of 256.
The optional C extension ``gecmetrics._gemm`` does exactly those operations in the same order,
several elements at a time; so its results are the same bits and the parses, hence the edits,
cannot change. It is used only after :func:`matches_installed_blis` has compared it with the
installed BLIS bit for bit on test matrices (any other kernel, e.g. one with fused multiply-add
or another block size, fails that check and spaCy keeps its own). ``GECMETRICS_NO_EXACT_GEMM=1``
turns it off.
"""
from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

try:
    from .. import _gemm as compiled
except ImportError:  # installed without a C compiler
    compiled = None  # type: ignore[assignment]

DISABLE_VARIABLE = "GECMETRICS_NO_EXACT_GEMM"
# (rows, inner, columns) of the check: one and three k blocks, odd sizes, and spaCy's own shapes
_CHECK_SHAPES = ((1, 1, 1), (7, 96, 45), (13, 288, 288), (5, 600, 19), (67, 384, 33))


def product(a: Any, b: Any, b_transposed: bool = False, out: Any = None) -> Any:
    """``a @ b`` (``a @ b.T`` with ``b_transposed``) of C-contiguous float32 matrices by the
    C extension, into ``out`` when given."""
    import numpy as np

    if compiled is None:
        raise RuntimeError("the C extension gecmetrics._gemm is not built in this installation")
    rows, columns = a.shape[0], (b.shape[0] if b_transposed else b.shape[1])
    if out is None:
        out = np.empty((rows, columns), dtype=np.float32)
    compiled.gemm(a, b, out, b_transposed)
    return out


@lru_cache(maxsize=1)
def matches_installed_blis() -> bool:
    """Whether the C extension gives bit for bit what thinc's BLIS gemm gives on random
    matrices of several shapes, both orientations (checked once per process)."""
    if compiled is None:
        return False
    import numpy as np
    from thinc.api import NumpyOps

    blis_ops = NumpyOps(use_blis=True)
    generator = np.random.default_rng(20261123)
    for rows, inner, columns in _CHECK_SHAPES:
        for transposed in (False, True):
            a = generator.standard_normal((rows, inner), dtype=np.float32)
            b = generator.standard_normal((columns, inner) if transposed else (inner, columns), dtype=np.float32)
            expected = blis_ops.gemm(a, b, trans2=transposed)
            if not np.array_equal(product(a, b, transposed), expected):
                return False
    return True


def enabled() -> bool:
    """Whether spaCy's products should go to the C extension: built, matching the installed
    BLIS bit for bit, and not turned off by the environment."""
    if os.environ.get(DISABLE_VARIABLE, "") not in ("", "0"):
        return False
    return matches_installed_blis()


def exact_ops_class() -> type:
    """thinc's NumpyOps with ``gemm`` done by the C extension (other cases left to thinc)."""
    from thinc.api import NumpyOps

    class ExactGemmOps(NumpyOps):
        name = "numpy"

        def gemm(self, x, y, *, out=None, trans1=False, trans2=False):  # type: ignore[override]
            import numpy as np

            if trans1 or x.dtype != np.float32 or y.dtype != np.float32 or x.ndim != 2 or y.ndim != 2:
                return super().gemm(x, y, out=out, trans1=trans1, trans2=trans2)
            x, y = self.as_contig(x), self.as_contig(y)
            if out is not None:
                out = self.as_contig(out)
            return product(x, y, trans2, out)

    return ExactGemmOps


def install(nlp: Any) -> bool:
    """Give every thinc layer of the pipeline's components the exact C gemm, when
    :func:`enabled`; True when it was installed."""
    if not enabled():
        return False
    ops = exact_ops_class()(use_blis=True)
    for _, component in nlp.pipeline:
        model = getattr(component, "model", None)
        if model is not None and hasattr(model, "walk"):
            for node in model.walk():
                node.ops = ops
    return True
