"""Chinese at character level, edit-identical to ChERRANT's ``parallel_to_m2.py -g char`` (no torch, no LTP)."""
