"""Shared machinery of gecmetrics (imports nothing above it)."""
