"""Model loading and tiny seeded models for tests."""
