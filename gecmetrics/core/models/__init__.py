"""Model loading, batched inference and tiny seeded models for tests."""
