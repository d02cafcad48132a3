"""gecmetrics: exact, fast scorers for grammatical error correction."""
from __future__ import annotations

__version__ = "0.1.0"

from .errors import InputError
from .corpus import Corpus, read_corpus, read_lines

__all__ = ["__version__", "InputError", "Corpus", "read_corpus", "read_lines"]
