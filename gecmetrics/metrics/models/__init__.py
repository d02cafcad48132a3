"""Model-based metrics: Scribendi, SOME, IMPARA, BERTScore."""
