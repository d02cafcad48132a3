"""ChERRANT's error types at character level (``modules/classifier.py``, granularity "char"):
by operation only. A transposition is ``W`` (word order), a deletion ``R`` (redundant), an
insertion ``M`` (missing), a substitution ``S``."""
from __future__ import annotations

from typing import Sequence

from ..base import TypedEdit
from .align import AlignOp

DELETION = "-NONE-"
TYPE_OF_OPERATION = {"T": "W", "D": "R", "I": "M", "S": "S"}


def classify(edits: Sequence[AlignOp], tgt: Sequence[str]) -> list[TypedEdit]:
    """Type the merged edits of one alignment."""
    out = []
    for op, s1, s2, t1, t2 in edits:
        error_type = TYPE_OF_OPERATION[op[0]]
        correction = DELETION if error_type == "R" else " ".join(tgt[t1:t2])
        out.append(TypedEdit(s1, s2, error_type, correction))
    return out
