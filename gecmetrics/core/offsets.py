"""Ragged data held flat: groups of rows one after another, group g at ``offsets[g]`` to
``offsets[g + 1]`` (one more offset than groups, the first 0)."""
from __future__ import annotations

from typing import Sequence

import numpy as np


def joined_offsets(parts: Sequence[np.ndarray]) -> np.ndarray:
    """The offsets of consecutive parts' groups (each part's offsets starting at 0) as one array."""
    joined, shift = [np.zeros(1, dtype=np.int64)], 0
    for offsets in parts:
        joined.append(np.asarray(offsets[1:], dtype=np.int64) + shift)
        shift += int(offsets[-1])
    return np.concatenate(joined)


def ranges_index(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The rows ``starts[g]`` to ``starts[g] + lengths[g]`` of every group g, one after another:
    the index that gathers the chosen groups' rows."""
    lengths = np.asarray(lengths, dtype=np.int64)
    ends = np.cumsum(lengths)
    total = int(ends[-1]) if len(ends) else 0
    return np.repeat(np.asarray(starts, dtype=np.int64) - ends + lengths, lengths) + np.arange(total, dtype=np.int64)
