"""Statistics over per-sentence rows: paired significance tests and rankings from pairwise wins."""
