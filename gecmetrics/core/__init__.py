"""Shared machinery below every other layer: n-grams, aggregation, caching, models."""
