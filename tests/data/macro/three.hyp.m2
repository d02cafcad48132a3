S This are a cat .
A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0
A 3 4|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0

S He go home
A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||0
A 3 3|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0

S I like dog .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

