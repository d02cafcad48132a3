"""GLEU+ (Napoles et al. 2015/2016) and the original 2015 GLEU."""
