"""PT-M2 and PT-ERRANT: edit-based GEC metrics whose edits are weighted by BERTScore
(Gong et al., EMNLP 2022). Needs the optional extra ``pt`` (torch + transformers), imported
only when a model is loaded: ``pip install 'gecmetrics[pt]'``."""
from __future__ import annotations

from .scorers import PTEngine, PTErrant, PTM2, PTSettings, PreparedCorpus, pt_errant_systems, pt_m2_systems
from .weighting import PTScore, choose_annotators, reduce_statistics

__all__ = ["PTEngine", "PTErrant", "PTM2", "PTSettings", "PreparedCorpus", "PTScore", "choose_annotators",
           "reduce_statistics", "pt_errant_systems", "pt_m2_systems"]
