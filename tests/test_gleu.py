"""GLEU+ on hand-computed cases (SPEC 2), and the reference draws of gec-ranking."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from gecmetrics import GLEU, GLEU2015, InputError