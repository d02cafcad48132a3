"""core/collector.survivors_frozen: what survives a full collection inside the block is frozen,
young cycles are still collected, and the collector is as it was after the block."""
from __future__ import annotations

import gc
import weakref

from gecmetrics.core.collector import survivors_frozen


class Node:
    def __init__(self) -> None:
        self.other = self


def test_survivors_are_frozen_and_thawed_after_the_block():
    assert gc.get_freeze_count() == 0
    callbacks = list(gc.callbacks)
    with survivors_frozen():
        kept = [Node() for _ in range(100)]
        gc.collect()  # a full collection: its survivors are frozen
        assert gc.get_freeze_count() >= len(kept)
        young = Node()
        watch = weakref.ref(young)
        del young
        gc.collect(0)  # a young cycle is still garbage collected
        assert watch() is None
    assert gc.get_freeze_count() == 0 and gc.callbacks == callbacks
    del kept


def test_objects_frozen_before_the_block_stay_frozen():
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        with survivors_frozen():
            gc.collect()
        assert gc.get_freeze_count() >= before > 0
    finally:
        gc.unfreeze()
