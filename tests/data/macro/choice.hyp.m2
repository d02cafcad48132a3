S a b c d
A 0 1|||R:DET|||the|||REQUIRED|||-NONE-|||0

S e f g h
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S i j k
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

