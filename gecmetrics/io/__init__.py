"""Reading and checking inputs: text, M2, ChERRANT para files."""
