"""CLEME and CLEME2.0: chunk-level evaluation of GEC on M2 input (see docs/cleme.md)."""
from __future__ import annotations

from .chunking import SentenceChunks, partition
from .metric import CLEME, CLEME2, ChunkSentenceScores, CLEME2Result, CLEME2Settings, CLEMEResult, CLEMESettings
from .scoring import AspectFactors
from .weighting import ClippedLogistic, LengthWeighting

__all__ = ["CLEME", "CLEME2", "CLEME2Result", "CLEME2Settings", "CLEMEResult", "CLEMESettings", "ChunkSentenceScores",
           "AspectFactors", "ClippedLogistic", "LengthWeighting", "SentenceChunks", "partition"]
