"""GoToScorer (Gotou et al., COLING 2020): chunk-level F weighted by how many systems fail each
chunk, from ERRANT M2 files (github gotutiyan/GTS). See :mod:`.scorer`."""
from __future__ import annotations

from .chunking import SKIPPED_TYPES, Chunks, build_chunks
from .scorer import (Difficulty, GoldChunks, GoToRun, GoToScores, Judgments, SystemEdits, WeightTable, category_of,
                     difficulty_table, format_difficulty, judge, level_weights, ordered_scores, parse_weight_file,
                     read_gold, read_system, read_systems, read_weight_file, score_systems, scores_from_sums,
                     sentence_scores, system_annotators, weight_table)

__all__ = ["SKIPPED_TYPES", "Chunks", "build_chunks", "Difficulty", "GoldChunks", "GoToRun", "GoToScores", "Judgments",
           "SystemEdits", "WeightTable", "category_of", "difficulty_table", "format_difficulty", "judge",
           "level_weights", "parse_weight_file", "read_gold", "read_system", "read_systems", "read_weight_file",
           "ordered_scores", "score_systems", "scores_from_sums", "sentence_scores", "system_annotators", "weight_table"]
