"""PT-M2 and PT-ERRANT: edit-based GEC metrics whose edits are weighted by BERTScore
(Gong et al., EMNLP 2022), registered as ``pt-m2`` and ``pt-errant``. They need the optional
extra ``pt`` (torch + transformers), imported only when a model is loaded:
``pip install 'gecmetrics[pt]'``."""
from __future__ import annotations

from .scorers import (PTEngine, PTErrant, PTM2, PTM2Settings, PTMetric, PTSettings, PreparedCorpus, engine_for,
                      release_models)
from .weighting import PT_RULE, PTResult, choose_annotators, pt_scores, reduce_statistics

__all__ = ["PTEngine", "PTErrant", "PTM2", "PTM2Settings", "PTMetric", "PTSettings", "PreparedCorpus", "engine_for",
           "release_models", "PT_RULE", "PTResult", "choose_annotators", "pt_scores", "reduce_statistics"]
