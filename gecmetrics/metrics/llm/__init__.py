"""LLM-S and LLM-E (Kobayashi et al., BEA 2024): a chat model scores up to five hypotheses of
one source from 1 to 5, shown as sentences (LLM-S) or as ERRANT edits (LLM-E).

``prompts`` builds gec-metrics' prompts and groups, ``answers`` the answer schema and its
checks, ``judge`` runs a plan through a backend with the persistent cache, ``backends`` holds the
OpenAI-compatible HTTP client and the local ``transformers`` model with constrained decoding.
"""
