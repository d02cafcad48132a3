"""Statistics over metric results: paired significance tests, system rankings from pairwise
wins (Expected Wins, TrueSkill), rankings from sentence scores, and edit attribution."""
