"""GREEN (Koyama et al. 2024)."""
