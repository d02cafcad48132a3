"""Shared machinery the metric families build on: the n-gram counting core, F-beta rules,
generic resamplers, tables, the language layer and model backends. Imports nothing above it."""
