"""What a metric's inputs are (a leaf module): text lines, M2 blocks, or nothing."""

TEXT = "text"
"""A hypothesis (or reference) given as lines of text."""
M2 = "m2"
"""A hypothesis (or reference) given as M2 blocks."""
NONE = "none"
"""No references: a reference-free metric."""
