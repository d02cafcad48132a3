S a b c d
A 0 1|||R:DET|||the|||REQUIRED|||-NONE-|||0
A 1 2|||R:PREP|||on|||REQUIRED|||-NONE-|||0

S e f g h
A 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0
A 1 2|||R:PREP|||in|||REQUIRED|||-NONE-|||1
A 2 3|||R:PREP|||at|||REQUIRED|||-NONE-|||1

S i j k
A 0 1|||UNK|||i|||REQUIRED|||-NONE-|||0

