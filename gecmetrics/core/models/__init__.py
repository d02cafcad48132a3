"""Model backends: loading transformers models, the plain-BERT encoder, BERTScore over token
embeddings, and tiny seeded models for tests (optional extra: torch, transformers)."""
