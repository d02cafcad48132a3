"""compare(): the same numbers as the separate commands, one counting pass, the registry, the
CLI's formats and errors. (benchmarks/compare_conll14.py is smoke-run by test_benchmarks_smoke.py.)"""
from __future__ import annotations

import io
import re
import json
from decimal import Decimal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from gecmetrics import GLEU, GLEU2015, GREEN, InputError