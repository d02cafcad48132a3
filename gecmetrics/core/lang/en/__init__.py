"""ERRANT 3.0.2's English rules: spaCy parses, alignment costs, merging and classification."""
