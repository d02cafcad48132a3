"""CLEME and CLEME2.0: chunk-level evaluation of GEC on M2 input (see docs/cleme.md)."""
from __future__ import annotations

from .chunking import SentenceChunks, partition
from .metric import CLEME, CLEME2, ChunkSentenceScores, CLEME2Result, CLEME2Settings, CLEMEResult, CLEMESettings
from .scoring import AspectFactors
from .statistics import ChunkStatistics
from .weighting import ClippedLogistic, LengthWeighting

__all__ = ["CLEME", "CLEME2", "CLEME2Result", "CLEME2Settings", "CLEMEResult", "CLEMESettings", "ChunkSentenceScores",
           "ChunkStatistics", "AspectFactors", "ClippedLogistic", "LengthWeighting", "SentenceChunks", "partition"]
