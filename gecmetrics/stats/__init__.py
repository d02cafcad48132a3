"""Statistics over per-sentence rows: paired significance tests and rankings from pairwise wins."""

METHODS = ("bs", "ar")
"""The paired tests: bootstrap resampling, approximate randomization."""
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
"""Resamples (bs) or trials (ar) by default."""
