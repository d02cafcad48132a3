"""Model-based metrics: the computations behind Scribendi, BERTScore and others."""
