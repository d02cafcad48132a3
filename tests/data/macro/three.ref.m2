S This are a cat .
A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0
A 2 3|||R:DET|||the|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||1

S He go home
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
A 3 3|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0

S I like dog .
A 2 3|||R:NOUN:NUM|||dogs|||REQUIRED|||-NONE-|||0

