"""Output beyond tables: plots."""
