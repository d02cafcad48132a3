"""Model backends: loading transformers models, the plain-BERT encoder and GPT-2 computed from
their weights, BERTScore over token embeddings, causal-LM perplexities, and tiny seeded models
(BERT, GPT-2) for tests (optional extra: torch, transformers)."""
