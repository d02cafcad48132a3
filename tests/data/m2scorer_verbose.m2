S Keeping the Secret of Genetic Testing
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S He go to school yesterday .
A 1 2|||Vform|||went||goes|||REQUIRED|||-NONE-|||0
A 1 2|||Vform|||goes|||REQUIRED|||-NONE-|||1
A 3 3|||ArtOrDet|||the|||REQUIRED|||-NONE-|||1

S The the cat sat on mat .
A 1 2|||Rloc-||||||REQUIRED|||-NONE-|||0
A 2 2|||Adj|||big|||REQUIRED|||-NONE-|||0
A 1 2|||Rloc-|||-NONE-|||REQUIRED|||-NONE-|||1
A 5 5|||ArtOrDet|||the|||REQUIRED|||-NONE-|||1

S I like apples very much .
A 2 2|||Adj|||red|||REQUIRED|||-NONE-|||0

S The naïve man said it 's true a b c :) .
A 1 2|||Mec|||naive|||REQUIRED|||-NONE-|||0
A 5 6|||Vform|||is|||REQUIRED|||-NONE-|||0
A 7 10|||Other|||a x y|||REQUIRED|||-NONE-|||0

