"""Shared machinery every layer above may use (counting, units, back-ends, the persistent cache)."""
