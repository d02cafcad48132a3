"""Metrics: reducers from the core's n-gram statistics to scores."""
from .gleu import GLEU, GLEUResult, GLEUSentenceScores

__all__ = ["GLEU", "GLEUResult", "GLEUSentenceScores"]
from .green import GREEN, GREENResult, GREENSentenceScores

__all__ += ["GREEN", "GREENResult", "GREENSentenceScores"]
