"""Paired significance tests: the sacrebleu procedure (checked against a plain re-statement of
it), the self-comparison and seed properties, the per-resample redoing of corpus-dependent
choices (GLEU+ sampling, ERRANT/MaxMatch running-F annotator choice), real CoNLL-2014
numbers and the CLI."""
from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gecmetrics import GLEU, GLEU2015, GREEN, InputError, paired_test, read_lines