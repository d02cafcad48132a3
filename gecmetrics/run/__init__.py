"""The run engine: corpora and files to per-sentence statistics, in chunks, on one or many
processes or a Dask cluster."""
