"""Reading and checking inputs: text files, corpora, M2, human judgments."""
