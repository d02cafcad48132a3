"""Language layers of the edit metrics: tokenizer, aligner costs, merger, classifier per language."""
