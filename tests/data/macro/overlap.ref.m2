S a b c d e f
A 1 2|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0
A 3 3|||Prep|||on|||REQUIRED|||-NONE-|||0
A 4 5|||Nn|||es|||REQUIRED|||-NONE-|||0

