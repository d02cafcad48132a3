"""The language layer of the edit metrics: tokeniser, aligner costs, merger and classifier
per language (``en``: ERRANT 3.0.2's English rules)."""
