"""Metrics as training signals (docs/rewards.md): :func:`reward_function` (TRL's
``GRPOTrainer`` convention) and :func:`mbr_select`, defined in :mod:`gecmetrics.run.rewards`.

>>> from gecmetrics.rewards import reward_function
>>> f = reward_function("gleu")
>>> f(completions=["He goes home ."], source=["He go home ."], references=[["He goes home ."]])
"""
from __future__ import annotations

from .run.rewards import (MBRSelection, RewardFunction, RewardStats, completion_text, mbr_select,  # noqa: F401
                          reward_function)

__all__ = ["reward_function", "mbr_select", "RewardFunction", "RewardStats", "MBRSelection", "completion_text"]
