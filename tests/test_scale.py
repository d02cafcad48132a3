"""Scale: results never depend on how the corpus is cut into chunks, on the number of worker
processes, or on whether a Dask cluster counted the chunks; files are read chunk by chunk with
errors naming the line in the whole file."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gecmetrics import GLEU, GLEU2015, GREEN, Corpus, ErrantCompare, InputError, M2Scorer