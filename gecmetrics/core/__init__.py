"""Shared machinery the metric families build on (imports nothing above it)."""
