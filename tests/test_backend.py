"""The C extension's loops against the NumPy loops and plain Python (gecmetrics.core.backend).

Every statistic must be the same whichever implementation counted it; the n-gram ids may be
numbered differently (no metric sees them)."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gecmetrics import GLEU, GLEU2015, GREEN
from gecmetrics.core import backend