S cat under dog on mat
A 0 0|||X|||sat|||REQUIRED|||-NONE-|||0
A 0 0|||X|||mat the|||REQUIRED|||-NONE-|||0
A 3 4|||X|||the|||REQUIRED|||-NONE-|||0
A 2 2|||X|||a|||REQUIRED|||-NONE-|||1
A 2 2|||X|||cat cat|||REQUIRED|||-NONE-|||1
A 3 4|||X|||-NONE-|||REQUIRED|||-NONE-|||1

S red sat on rug mat
A 1 2|||X|||sat|||REQUIRED|||-NONE-|||0
A 4 4|||X|||a .|||REQUIRED|||-NONE-|||0
A 4 4|||X|||sat .|||REQUIRED|||-NONE-|||0
A 1 1|||X|||sat|||REQUIRED|||-NONE-|||1
A 1 1|||X|||cat mat|||REQUIRED|||-NONE-|||1
A 2 3|||X|||-NONE-|||REQUIRED|||-NONE-|||1

S the cat rug mat dog dog
A 4 4|||X|||cat .|||REQUIRED|||-NONE-|||0
A 4 4|||X|||mat the|||REQUIRED|||-NONE-|||0
A 4 4|||X|||cat|||REQUIRED|||-NONE-|||0
A 5 6|||X|||-NONE-|||REQUIRED|||-NONE-|||0

S . red . sits red a
A 0 1|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 2 2|||X|||mat cat|||REQUIRED|||-NONE-|||0
A 2 2|||X|||sat on|||REQUIRED|||-NONE-|||0
A 2 2|||X|||sat|||REQUIRED|||-NONE-|||0
A 2 2|||X|||a|||REQUIRED|||-NONE-|||0

S red . red sat dog dog sat
A 1 1|||X|||cat|||REQUIRED|||-NONE-|||0
A 1 1|||X|||mat|||REQUIRED|||-NONE-|||0
A 1 2|||X|||-NONE-|||REQUIRED|||-NONE-|||0

S sits on rug rug cat cat sits mat
A 3 3|||X|||on mat|||REQUIRED|||-NONE-|||0
A 3 3|||X|||mat|||REQUIRED|||-NONE-|||0
A 3 3|||X|||cat mat|||REQUIRED|||-NONE-|||0
A 3 4|||X|||the|||REQUIRED|||-NONE-|||0

S under . dog dog red
A 0 1|||X|||cat|||REQUIRED|||-NONE-|||0
A 1 1|||X|||sat|||REQUIRED|||-NONE-|||0
A 1 1|||X|||mat|||REQUIRED|||-NONE-|||0
A 1 1|||X|||cat|||REQUIRED|||-NONE-|||0
A 1 1|||X|||the|||REQUIRED|||-NONE-|||0
A 1 1|||X|||the a|||REQUIRED|||-NONE-|||1
A 1 1|||X|||mat a|||REQUIRED|||-NONE-|||1
A 1 1|||X|||.|||REQUIRED|||-NONE-|||1
A 1 1|||X|||the .|||REQUIRED|||-NONE-|||1
A 1 2|||X|||a|||REQUIRED|||-NONE-|||1

S on under sat mat red on sat
A 4 4|||X|||mat|||REQUIRED|||-NONE-|||0
A 4 4|||X|||a cat|||REQUIRED|||-NONE-|||0
A 4 4|||X|||sat|||REQUIRED|||-NONE-|||0
A 4 5|||X|||the|||REQUIRED|||-NONE-|||0

S dog mat dog . mat dog
A 4 5|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 5 5|||X|||mat|||REQUIRED|||-NONE-|||0
A 5 5|||X|||a|||REQUIRED|||-NONE-|||0

S . cat sat sat dog .
A 2 3|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 3 3|||X|||on|||REQUIRED|||-NONE-|||0
A 3 3|||X|||sat a|||REQUIRED|||-NONE-|||0
A 3 3|||X|||the on|||REQUIRED|||-NONE-|||0

S w24 w11 . w6 w23 w32 w11 w29 w3 w2 w30 w9 w21 w8 w25 to of w20 w31 w10 w2 w29 w8 w23 w15 w28 w27 w11 w23 w1 w20 w16 w24 the w5 w13 w11 w27 w29 w17 w32 w6 a w6 w8 w17 , w26 . w18 w9 w7 w7 w33 the w18 , the w16 . of , w12 w10 w14 w15 w5 w2 w3 w33 w15 w28 w14 w12 a w0 w14 w14 w17 w28 to w2 w27 w23 w18 w32 w14 w7 to w23 w18 w22 w18 w30 w4 w33 w14 , w17 w17 the w8 w24 w2 w13 w23 w10 w13 w4 w16 w3 a w13 w23 w24 w3 w8 w26 w22 w20 w8 w0 w1 of . w2 the w1 w15 w0 w21 w14 w8 w6 the w26 w10 w15 w11 w19 w5 w6 the w21 of w21 w27 w10 w27 w15 w3 w9 w24 w23 w13 w29 w18 w24 . w21 of of w5 w33 w21 w12 . w6 w12 w5 w8 w7 w18 w7 w13 . w4 w11 w12 w11 w32
A 6 7|||X|||w1|||REQUIRED|||-NONE-|||0
A 8 9|||X|||w20|||REQUIRED|||-NONE-|||0
A 13 13|||X|||w11 ,|||REQUIRED|||-NONE-|||0
A 26 26|||X|||the w21 w15|||REQUIRED|||-NONE-|||0
A 26 26|||X|||w0|||REQUIRED|||-NONE-|||0
A 28 28|||X|||of|||REQUIRED|||-NONE-|||0
A 30 31|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 45 45|||X|||w26|||REQUIRED|||-NONE-|||0
A 56 56|||X|||w5 w29 w20|||REQUIRED|||-NONE-|||0
A 60 61|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 79 80|||X|||w18|||REQUIRED|||-NONE-|||0
A 101 103|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 109 110|||X|||w30|||REQUIRED|||-NONE-|||0
A 130 131|||X|||to|||REQUIRED|||-NONE-|||0
A 149 150|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 166 168|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 172 172|||X|||w17 w28 w13|||REQUIRED|||-NONE-|||0
A 172 172|||X|||w17|||REQUIRED|||-NONE-|||0
A 177 178|||X|||w0|||REQUIRED|||-NONE-|||0
A 8 9|||X|||w20|||REQUIRED|||-NONE-|||1
A 10 10|||X|||w12|||REQUIRED|||-NONE-|||1
A 13 13|||X|||w11 ,|||REQUIRED|||-NONE-|||1
A 26 26|||X|||w0|||REQUIRED|||-NONE-|||1
A 30 31|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 35 35|||X|||w16|||REQUIRED|||-NONE-|||1
A 48 48|||X|||w22|||REQUIRED|||-NONE-|||1
A 79 80|||X|||w18|||REQUIRED|||-NONE-|||1
A 91 92|||X|||w7|||REQUIRED|||-NONE-|||1
A 108 109|||X|||w6|||REQUIRED|||-NONE-|||1
A 114 115|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 149 150|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 158 159|||X|||of|||REQUIRED|||-NONE-|||1
A 166 168|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 172 172|||X|||w17 w28 w13|||REQUIRED|||-NONE-|||1
A 172 172|||X|||w17|||REQUIRED|||-NONE-|||1

S w2 w32 the w5 w10 w26 w20 to w22 w14 w31 w5 w33 w26 . w31 w20 w11 w10 w25 w21 w12 w29 w17 w19 . w23 w21 w2 w16 w28 w10 w13 w28 w23 w22 w13 . w31 w12 of w9 w12 to w4 w31 w28 w7 w6 w19 the w11 w10 w24 w15 w9 w9 w20 w32 a a w7 w0 w29 w19 w25 , the w1 w24 . w32 w21 w21 w33 to w1 w19 , w14 w25 w33 w6 w30 the w28 w17 w30 w5 w11 to w25 w23 the w9 w19 w2 w27 w17 w10 w13 w20 w19 w28 w3 w21 w31 w10 w14 of w13 w4 w3 , the w24 w8 w33 to w29 w18 w21 w2 w3 w7 w31 w13 w12 w20 w5 w9 w33 w11 w25 w21 w16 w19 w8 of w30 w13 of w2 w24 w26 w10 w10 a w11 to w11 the w11 w30 , w14 w3 w10 w18 w7 w21 w32 w31 w17 w14 of w26 of w12 . w26 w6 w19 w0 w26 w9 w32 w6 w6 w0 of w2 to w15 , w17 w26 w13 w9 w19 w10 . w4 w19 w22 w1 w23 w19 w14 w8 w21 w4 w18 w25 w26 w11 w1 w28 w31 w31 w25 w13 w22 w9 w3 w9 w6 w28 . w32 w17 w27 w14 w14 w22 w10 a w2 w9 w24 w22 w18 w6 w32 to w1 , w17 w13 . w6 w14 w33 a w14 w25 w0 to w26 w27 w7 w17 w10 w13 w16 w8 w33 w21 w21 . w19 a w19 w20 w18 w18 the the a w29 w12 w26 w26 w25 w10 w30 w25 w6 w4 w24 w7 a w10 w33 w23 w19 w9 w32 w1 . . w14 w8 w28 w12 the w24 w25 w9 w30 w30 w3 w16 w31 . w15 w26 w0 w5 w14 w20 w9 w30 w18 w6 a w24
A 8 9|||X|||w17|||REQUIRED|||-NONE-|||0
A 14 15|||X|||w12|||REQUIRED|||-NONE-|||0
A 27 27|||X|||w21|||REQUIRED|||-NONE-|||0
A 27 27|||X|||w17|||REQUIRED|||-NONE-|||0
A 45 46|||X|||w17|||REQUIRED|||-NONE-|||0
A 68 70|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 84 84|||X|||w15|||REQUIRED|||-NONE-|||0
A 88 88|||X|||w11|||REQUIRED|||-NONE-|||0
A 88 88|||X|||w0|||REQUIRED|||-NONE-|||0
A 92 92|||X|||w15 of|||REQUIRED|||-NONE-|||0
A 122 124|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 129 130|||X|||w14|||REQUIRED|||-NONE-|||0
A 150 150|||X|||w8|||REQUIRED|||-NONE-|||0
A 159 159|||X|||w23|||REQUIRED|||-NONE-|||0
A 172 174|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 181 183|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 184 185|||X|||w13|||REQUIRED|||-NONE-|||0
A 195 196|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 201 201|||X|||w8|||REQUIRED|||-NONE-|||0
A 203 204|||X|||w19|||REQUIRED|||-NONE-|||0
A 208 209|||X|||w4|||REQUIRED|||-NONE-|||0
A 221 223|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 240 241|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 251 253|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 261 261|||X|||w22 w9 w29|||REQUIRED|||-NONE-|||0
A 273 273|||X|||w33|||REQUIRED|||-NONE-|||0
A 273 274|||X|||w11|||REQUIRED|||-NONE-|||0
A 288 289|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 310 311|||X|||w30|||REQUIRED|||-NONE-|||0
A 314 315|||X|||of|||REQUIRED|||-NONE-|||0
A 8 9|||X|||w17|||REQUIRED|||-NONE-|||1
A 14 15|||X|||w12|||REQUIRED|||-NONE-|||1
A 27 27|||X|||w21|||REQUIRED|||-NONE-|||1
A 45 46|||X|||w17|||REQUIRED|||-NONE-|||1
A 63 63|||X|||to w8 w10|||REQUIRED|||-NONE-|||1
A 68 70|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 88 88|||X|||w0|||REQUIRED|||-NONE-|||1
A 92 92|||X|||w15 of|||REQUIRED|||-NONE-|||1
A 105 106|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 118 118|||X|||w7 w25|||REQUIRED|||-NONE-|||1
A 122 124|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 129 130|||X|||w14|||REQUIRED|||-NONE-|||1
A 134 134|||X|||w32 w7 w13|||REQUIRED|||-NONE-|||1
A 152 153|||X|||w11|||REQUIRED|||-NONE-|||1
A 167 168|||X|||w12|||REQUIRED|||-NONE-|||1
A 172 174|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 181 183|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 203 204|||X|||w19|||REQUIRED|||-NONE-|||1
A 208 209|||X|||w4|||REQUIRED|||-NONE-|||1
A 221 223|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 225 226|||X|||to|||REQUIRED|||-NONE-|||1
A 240 241|||X|||w0|||REQUIRED|||-NONE-|||1
A 251 253|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 259 260|||X|||w33|||REQUIRED|||-NONE-|||1
A 261 261|||X|||w22 w9 w29|||REQUIRED|||-NONE-|||1
A 282 282|||X|||a|||REQUIRED|||-NONE-|||1
A 288 289|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 295 295|||X|||w25|||REQUIRED|||-NONE-|||1
A 300 301|||X|||a|||REQUIRED|||-NONE-|||1
A 305 307|||X|||-NONE-|||REQUIRED|||-NONE-|||1

S w12 w29 w17 of w33 w26 w27 w2 of w12 w2 w20 w25 a w5 w13 , . . w3 w25 w31 w24 w20 w31 w30 w25 w18 w33 the w31 w19 w32 w31 of w6 w10 w27 w16 of w12 w14 w26 w5 w3 w18 , w30 w2 w22 w24 w16 w27 w32 w33 w33 w11 w28 w19 w2 w29 w0 w9 w9 w11 w28 w29 w16 w6 w9 w22 w2 w22 , w12 w0 . w2 w22 w5 w16 w31 w27 w18 w31 to w20 w13 . w1 w26 w5 w5 w25 w9 w12 . w17 w30 w27 w8 w30 w12 w8 w23 the w22 w24 w9 w10 w15 w16 w23 w2 a w1 w33 w29 w25 w15 w4 w27 to w8 . . w14 w16 w19 w20 w32 w6 w2 w27 w21 w7 w4 w22 w30 w0 w33 w21 w16 , . w15 w6 w15 w25 w14 . of w24 w30 to . w1 w9 , w10 w18
A 8 8|||X|||the|||REQUIRED|||-NONE-|||0
A 27 27|||X|||w26|||REQUIRED|||-NONE-|||0
A 42 42|||X|||w24 w12 w19|||REQUIRED|||-NONE-|||0
A 56 56|||X|||w29 w12|||REQUIRED|||-NONE-|||0
A 73 74|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 80 81|||X|||w18|||REQUIRED|||-NONE-|||0
A 92 93|||X|||w20|||REQUIRED|||-NONE-|||0
A 97 97|||X|||w17 w4 w8|||REQUIRED|||-NONE-|||0
A 110 111|||X|||w4|||REQUIRED|||-NONE-|||0
A 115 115|||X|||w32 ,|||REQUIRED|||-NONE-|||0
A 126 127|||X|||w12|||REQUIRED|||-NONE-|||0
A 130 131|||X|||w5|||REQUIRED|||-NONE-|||0
A 135 136|||X|||w18|||REQUIRED|||-NONE-|||0
A 136 137|||X|||w14|||REQUIRED|||-NONE-|||0
A 151 151|||X|||w7 w4|||REQUIRED|||-NONE-|||0
A 151 151|||X|||to|||REQUIRED|||-NONE-|||0
A 157 157|||X|||w6 w27|||REQUIRED|||-NONE-|||0
A 157 157|||X|||w29|||REQUIRED|||-NONE-|||0
A 24 25|||X|||w13|||REQUIRED|||-NONE-|||1
A 42 42|||X|||w24 w12 w19|||REQUIRED|||-NONE-|||1
A 57 58|||X|||w8|||REQUIRED|||-NONE-|||1
A 65 65|||X|||w20 w21|||REQUIRED|||-NONE-|||1
A 93 94|||X|||a|||REQUIRED|||-NONE-|||1
A 115 115|||X|||w32 ,|||REQUIRED|||-NONE-|||1
A 121 122|||X|||w0|||REQUIRED|||-NONE-|||1
A 124 124|||X|||w15|||REQUIRED|||-NONE-|||1
A 126 127|||X|||w12|||REQUIRED|||-NONE-|||1
A 130 131|||X|||w5|||REQUIRED|||-NONE-|||1
A 136 137|||X|||w14|||REQUIRED|||-NONE-|||1
A 157 157|||X|||w29|||REQUIRED|||-NONE-|||1

S of w11 w14 w11 w5 w22 w33 w22 w33 w8 w7 w11 w3 w16 w17 w7 w14 w2 w4 w23 w17 w33 w1 of a w21 w16 w13 w1 w19 w8 w17 w17 w0 to w28 w11 w19 w23 the a w26 w8 w13 w33 w32 w18 w33 w28 w31 w7 w4 w30 w27 w3 w7 w6 w31 w33 a w11 . w8 w16 to w26 w10 w24 w29 w27 w20 w10 w10 w27 w0 . w9 w8 w1 w19 of a w26 w29 w14 a w7 of w8 w9 w22 w17 the the w26 w28 w26 w8 w11 w31 w8 w4 the w29 , w15 w22 w33 w6 w3 w14 w11 of w5 w23 the w2 w6 w19 w6 w6 w12 w20 w30 . w9 w32 w4
A 17 17|||X|||w20|||REQUIRED|||-NONE-|||0
A 17 17|||X|||w11|||REQUIRED|||-NONE-|||0
A 17 17|||X|||w0|||REQUIRED|||-NONE-|||0
A 20 21|||X|||w8|||REQUIRED|||-NONE-|||0
A 32 34|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 48 48|||X|||of a w3|||REQUIRED|||-NONE-|||0
A 58 58|||X|||w24 w16 w6|||REQUIRED|||-NONE-|||0
A 58 58|||X|||w29|||REQUIRED|||-NONE-|||0
A 84 85|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 94 95|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 99 99|||X|||w6|||REQUIRED|||-NONE-|||0
A 122 123|||X|||w12|||REQUIRED|||-NONE-|||0
A 7 8|||X|||to|||REQUIRED|||-NONE-|||1
A 17 17|||X|||w11|||REQUIRED|||-NONE-|||1
A 23 24|||X|||w25|||REQUIRED|||-NONE-|||1
A 48 48|||X|||of a w3|||REQUIRED|||-NONE-|||1
A 56 56|||X|||w5|||REQUIRED|||-NONE-|||1
A 58 58|||X|||w24 w16 w6|||REQUIRED|||-NONE-|||1
A 58 58|||X|||w29|||REQUIRED|||-NONE-|||1
A 63 64|||X|||w8|||REQUIRED|||-NONE-|||1
A 69 70|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 84 85|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 88 89|||X|||w29|||REQUIRED|||-NONE-|||1
A 98 98|||X|||w9 w26|||REQUIRED|||-NONE-|||1
A 101 101|||X|||w31|||REQUIRED|||-NONE-|||1
A 107 108|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 122 123|||X|||w12|||REQUIRED|||-NONE-|||1

S w3 w11 w23 w19 w19 w10 w28 w1 w27 w19 w0 w19 w12 w6 w26 w28 , of w12 w17 w29 w24 w17 the w29 w10 to w26 w30 w6 , w31 w20 w25 , w16 w30 w9 w18 w22 w22 w16 w26 w6 w27 w24 a w29 to w17 w10 , w13 w2 w24 w29 w30 w31 w14 . w6 w21 w31 w6 w28 w6 w23 w2 w26 w16 . w21 w14 w15 w29 w21 w32 w19 w10 w33 w3 w13 w32 w20 w23 w23 w26 w32 w0 w13 w8 w28 w11 w19 w22 w9 w11 w7 w33 w7 w32 w26 w13 w23 w20 w30 w12 w27 to w24 w21 w11 w6 w30 w30 w28 w1 w33 w17 w30 w0 w10 w1 w23 w26 w33 to w28 w19 w16 w11 to the . w28 w9 w22 w6 w14 w17 w27 , w4 w4 w8 w5 w18 w9 w8 w30 a w11 w15 w0 w0 a w27 of w7 the w7 w24 w30 w33 w17 to w12 w33 of to w9 of w15 w33 w26 . w19 w12 w3 . w33 w5 w7 w0 w3 w18 . w9 w27 w27 w21 w5 w30 w31 w27 w28 w4 w15 w28 w27 w5 w25 w6 w29 w7 w4 w33 w11 w29 the a w25 . w30 w24 w12 w11 w16 w17 w23 w1 w29 w24 w28 w9 w29 w20 , w8 w21 . w14 w8 w7 w0 w3 w14 w17
A 10 11|||X|||w19|||REQUIRED|||-NONE-|||0
A 41 41|||X|||w20 w29 .|||REQUIRED|||-NONE-|||0
A 49 50|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 86 87|||X|||w11|||REQUIRED|||-NONE-|||0
A 101 103|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 104 105|||X|||w4|||REQUIRED|||-NONE-|||0
A 119 119|||X|||w27|||REQUIRED|||-NONE-|||0
A 119 119|||X|||w32|||REQUIRED|||-NONE-|||0
A 130 131|||X|||w4|||REQUIRED|||-NONE-|||0
A 131 131|||X|||w10 w11 ,|||REQUIRED|||-NONE-|||0
A 143 144|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 162 163|||X|||w9|||REQUIRED|||-NONE-|||0
A 179 179|||X|||w31 w22 w17|||REQUIRED|||-NONE-|||0
A 194 194|||X|||, w10 w32|||REQUIRED|||-NONE-|||0
A 204 204|||X|||w30|||REQUIRED|||-NONE-|||0
A 210 212|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 211 212|||X|||w18|||REQUIRED|||-NONE-|||0
A 228 228|||X|||w11|||REQUIRED|||-NONE-|||0
A 17 18|||X|||w1|||REQUIRED|||-NONE-|||1
A 29 30|||X|||,|||REQUIRED|||-NONE-|||1
A 41 41|||X|||w20 w29 .|||REQUIRED|||-NONE-|||1
A 66 67|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 94 94|||X|||w8|||REQUIRED|||-NONE-|||1
A 101 103|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 110 111|||X|||w21|||REQUIRED|||-NONE-|||1
A 119 119|||X|||w32|||REQUIRED|||-NONE-|||1
A 131 131|||X|||w10 w11 ,|||REQUIRED|||-NONE-|||1
A 179 179|||X|||w31 w22 w17|||REQUIRED|||-NONE-|||1
A 194 194|||X|||, w10 w32|||REQUIRED|||-NONE-|||1
A 210 212|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 228 228|||X|||w11|||REQUIRED|||-NONE-|||1
A 235 236|||X|||w7|||REQUIRED|||-NONE-|||1

S w8 w26 w17 w4 of w27 w5 w27 w4 w26 w30 the w17 w31 w29 w28 w18 w21 w4 w25 a w12 to the w11 w27 w32 w1 of w4 w1 w11 w12 w33 w23 , the w25 w26 w5 w3 the the w2 . w6 w33 w26 w21 w3 w31 w33 w33 w9 w22 to w17 to w30 w1 w27 the w33 w22 w25 . w32 w26 w25 w6 w28 w20 w10 w13 w25 w32 of w9 w26 w22 w0 w21 w22 w30 w21 w23 w16 w12 to w17 the to . w8 w24 w32 w29 w27 w7 w20 w29 w25 w9 w16 w24 w13 w17 w25 w21 w26 , w21 w10 w10 w6 w9 w32 . . w14 w13 w30 w16 to w16 w0 w8 w33 w8 w31 a w6 w1 w8 a w28 w8 w30 w3 w9 w17 w23 w22 w25 w26 w16 w19 w13 w30 a w32 w21 w3 w7 w24 w28 w21 w4 w20 w18 w16 w27 w4 w3 w21 w25 w22
A 12 13|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 23 24|||X|||w0|||REQUIRED|||-NONE-|||0
A 40 41|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 42 42|||X|||w32|||REQUIRED|||-NONE-|||0
A 47 48|||X|||a|||REQUIRED|||-NONE-|||0
A 56 56|||X|||w9 w16 w33|||REQUIRED|||-NONE-|||0
A 85 85|||X|||w32|||REQUIRED|||-NONE-|||0
A 89 90|||X|||w29|||REQUIRED|||-NONE-|||0
A 92 92|||X|||w22|||REQUIRED|||-NONE-|||0
A 123 123|||X|||w15|||REQUIRED|||-NONE-|||0
A 142 142|||X|||w14 w17|||REQUIRED|||-NONE-|||0
A 152 154|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 159 160|||X|||,|||REQUIRED|||-NONE-|||0
A 162 162|||X|||w21|||REQUIRED|||-NONE-|||0
A 166 167|||X|||w8|||REQUIRED|||-NONE-|||0
A 12 13|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 23 24|||X|||w0|||REQUIRED|||-NONE-|||1
A 56 56|||X|||w9 w16 w33|||REQUIRED|||-NONE-|||1
A 71 72|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 77 78|||X|||w25|||REQUIRED|||-NONE-|||1
A 86 86|||X|||w9|||REQUIRED|||-NONE-|||1
A 91 92|||X|||w2|||REQUIRED|||-NONE-|||1
A 97 99|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 108 109|||X|||of|||REQUIRED|||-NONE-|||1
A 115 116|||X|||w4|||REQUIRED|||-NONE-|||1
A 133 134|||X|||w16|||REQUIRED|||-NONE-|||1
A 142 142|||X|||w14 w17|||REQUIRED|||-NONE-|||1
A 145 146|||X|||w25|||REQUIRED|||-NONE-|||1
A 152 154|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 166 167|||X|||w8|||REQUIRED|||-NONE-|||1

S w33 of w29 the w4 w20 w29 w11 w14 w22 w11 w22 w5 w4 w7 a w3 . w16 w12 w23 w23 w26 w30 w23 w8 w23 w22 w2 w23 w14 w32 w21 w24 w33 w21 w6 a w10 w20 w28 of w3 w25 w3 w33 w26 w25 w1 w25 w31 w24 w16 w5 w28 w24 w17 w29 w9 w12 w32 w21 w15 of w19 w24 w20 w12 w27 w30 w20 w28 w10 w9 w27 w22 w22 w33 , the w16 w2 w29 w13 w25 w27 the w32 w8 w28 w9 w32 w18 w2 w0 w3 w26 w30 w7 w23 the to w13 w15 w14 w0 w7 w17 of w33 , w6 w7 w8 w16 w17 w23 w13 w25 of w1 w20 to w22 w27 w29 w20 w26 w15 w11 w18 w31 w21 w1 w23 w14 w11 w8 w30 w30 the w32 w21 w28 w4 a w14 w26 w1 w10 w22 w25 w3 w6 w2 w27 w31 w13 a w0 w2 w8 w6 w2 w18 w11 w22 w3 w13 , w25 , w4 w30 w3 w17 the w20 w3 w3 w12 w3 the to w32 to w22 w17 w21 of w18 w17 w12 w6 w1 w5 . w26 w19 w13 w0 w3 w12 w8 w4 , w8 w33 w24 w22 w19 w13 w7 w30 w0 w21 w17
A 8 9|||X|||w25|||REQUIRED|||-NONE-|||0
A 38 40|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 49 50|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 54 54|||X|||w18|||REQUIRED|||-NONE-|||0
A 74 75|||X|||w7|||REQUIRED|||-NONE-|||0
A 80 81|||X|||to|||REQUIRED|||-NONE-|||0
A 99 99|||X|||w21|||REQUIRED|||-NONE-|||0
A 123 124|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 125 126|||X|||w9|||REQUIRED|||-NONE-|||0
A 132 132|||X|||w4 w5 w32|||REQUIRED|||-NONE-|||0
A 132 132|||X|||w20|||REQUIRED|||-NONE-|||0
A 135 135|||X|||w2|||REQUIRED|||-NONE-|||0
A 149 150|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 163 163|||X|||w5 . w29|||REQUIRED|||-NONE-|||0
A 173 173|||X|||w3|||REQUIRED|||-NONE-|||0
A 190 191|||X|||of|||REQUIRED|||-NONE-|||0
A 199 201|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 205 206|||X|||w13|||REQUIRED|||-NONE-|||0
A 211 212|||X|||w26|||REQUIRED|||-NONE-|||0
A 215 216|||X|||,|||REQUIRED|||-NONE-|||0
A 14 15|||X|||w6|||REQUIRED|||-NONE-|||1
A 21 21|||X|||w30|||REQUIRED|||-NONE-|||1
A 28 28|||X|||w26|||REQUIRED|||-NONE-|||1
A 42 43|||X|||w16|||REQUIRED|||-NONE-|||1
A 58 59|||X|||w15|||REQUIRED|||-NONE-|||1
A 65 66|||X|||,|||REQUIRED|||-NONE-|||1
A 80 81|||X|||to|||REQUIRED|||-NONE-|||1
A 99 99|||X|||w19 w15|||REQUIRED|||-NONE-|||1
A 99 99|||X|||w21|||REQUIRED|||-NONE-|||1
A 100 101|||X|||w6|||REQUIRED|||-NONE-|||1
A 111 111|||X|||a w10 w29|||REQUIRED|||-NONE-|||1
A 116 116|||X|||w18|||REQUIRED|||-NONE-|||1
A 132 132|||X|||w4 w5 w32|||REQUIRED|||-NONE-|||1
A 149 150|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 163 163|||X|||w5 . w29|||REQUIRED|||-NONE-|||1
A 173 173|||X|||w3|||REQUIRED|||-NONE-|||1
A 173 173|||X|||w27|||REQUIRED|||-NONE-|||1
A 199 201|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 211 212|||X|||w26|||REQUIRED|||-NONE-|||1

S , w7 w21 to w13 w27 to w33 w33 the w24 w24 w33 a w13 w7 w10 w14 the to w10 w9 w26 w15 w2 w23 w26 w24 w26 w29 w30 w9 w23 w13 w9 w22 w15 w8 . w17 w6 w28 w27 w32 w28 w0 , w20 w28 w23 w28 w23 w18 w1 w3 w8 of w28 , . w16 w19 w28 w12 w23 w5 w32 w10 w33 w1 w27 , w7 w6 w28 w1 w31 a w26 w25 w18 w7 of w24 w25 w24 to w32 w6 w28 w18 w19 w20 . w32 w4 w33 a w0 w28 w10 w10 w22 w32 w33 w14 w30 the w2 w26 w11 w21 w20 w12 the w4 w21 w30 w26 w25 to w7 w14 w25 w17 w1 w0 w12 w20 w14 w1 ,
A 12 12|||X|||w24 w8 w18|||REQUIRED|||-NONE-|||0
A 14 14|||X|||w20|||REQUIRED|||-NONE-|||0
A 27 28|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 38 40|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 47 48|||X|||w30|||REQUIRED|||-NONE-|||0
A 70 71|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 77 77|||X|||of|||REQUIRED|||-NONE-|||0
A 87 87|||X|||w5 w0|||REQUIRED|||-NONE-|||0
A 87 87|||X|||.|||REQUIRED|||-NONE-|||0
A 95 96|||X|||w23|||REQUIRED|||-NONE-|||0
A 107 109|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 112 112|||X|||w8|||REQUIRED|||-NONE-|||0
A 116 116|||X|||w1 of w23|||REQUIRED|||-NONE-|||0
A 27 28|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 47 48|||X|||w30|||REQUIRED|||-NONE-|||1
A 59 60|||X|||w18|||REQUIRED|||-NONE-|||1
A 65 66|||X|||w8|||REQUIRED|||-NONE-|||1
A 70 71|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 75 76|||X|||w0|||REQUIRED|||-NONE-|||1
A 82 83|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 89 89|||X|||w32|||REQUIRED|||-NONE-|||1
A 95 96|||X|||w23|||REQUIRED|||-NONE-|||1
A 107 109|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 129 129|||X|||w7|||REQUIRED|||-NONE-|||1

S w26 w6 w21 w3 w16 of w7 w2 w12 w30 w4 w26 w3 w4 w32 w27 w12 w28 w28 w31 w9 . w5 w22 w23 w11 . w5 w0 w1 w1 of to w1 w30 w15 w1 w30 w4 w5 a w5 w9 . w13 w22 w21 w19 w16 to w0 w23 w32 w2 w9 to w20 , w20 w23 w27 . w16 w33 w20 the w11 a to w6 w28 w15 w19 w14 . w31 w11 a w22 . w16 w3 w18 to . w0 w30 w3 w27 w16 w33 w1 w0 w27 w11 w20 the w0 w33 w14 w22 w15 . w10 . w18 w14 w16 w3 w32 w2 w25 w7 a w30 w18 w13 w6 w21 of w9 w12 a w2 w32 w26 w29 w11 w0 w30 w15 w24 w16 w1 w17 w30 w17 w19 w16 w19 w19 w30 w23 w11 w21 , w21 a w0 w11 w20 w32 w25 w8 w7 w21 w18 w24 w27 , w22 the the w6 w23 w31 w7 w24 w14 w25 w2 w2 the w10 w8 w4 w6 w14 , w11 w25 w4 w9 w33 w33 the w30 w16 w30 w4 w8 w14 a w24 w22 w23 the w33 to w21 w19 w8 w18 to w14 to w16 w29 w10 w12 w29 a , w4 w3 w23 w14 w30 w19 w32 w33 w10 , w33 w0 . w27 w10 w13 w28 w24 w22 w15 w14 w17 w2 w27 w17 w27 w11 the w19 w11 of w4 w28 w23 w17 w27 w17 w15 w17 w0 w10 w13 w6 w3 w12 . w32 w25 , w13 a w9 w0 w28 w24 w1 w25 . w1 w3 w25 w12 w11 of , w24
A 8 9|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 14 16|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 25 26|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 30 30|||X|||w25|||REQUIRED|||-NONE-|||0
A 61 61|||X|||w15 w5 to|||REQUIRED|||-NONE-|||0
A 76 76|||X|||of|||REQUIRED|||-NONE-|||0
A 88 88|||X|||w12 w21 w24|||REQUIRED|||-NONE-|||0
A 97 98|||X|||w12|||REQUIRED|||-NONE-|||0
A 113 114|||X|||w5|||REQUIRED|||-NONE-|||0
A 118 119|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 159 159|||X|||w9|||REQUIRED|||-NONE-|||0
A 160 160|||X|||w31|||REQUIRED|||-NONE-|||0
A 163 164|||X|||w4|||REQUIRED|||-NONE-|||0
A 169 169|||X|||w9|||REQUIRED|||-NONE-|||0
A 179 180|||X|||w2|||REQUIRED|||-NONE-|||0
A 194 195|||X|||w22|||REQUIRED|||-NONE-|||0
A 200 202|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 214 216|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 220 221|||X|||w4|||REQUIRED|||-NONE-|||0
A 226 227|||X|||w29|||REQUIRED|||-NONE-|||0
A 231 233|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 232 233|||X|||w18|||REQUIRED|||-NONE-|||0
A 241 242|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 250 250|||X|||,|||REQUIRED|||-NONE-|||0
A 254 256|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 25 26|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 30 30|||X|||w21|||REQUIRED|||-NONE-|||1
A 53 55|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 61 61|||X|||w15 w5 to|||REQUIRED|||-NONE-|||1
A 76 76|||X|||of|||REQUIRED|||-NONE-|||1
A 90 91|||X|||.|||REQUIRED|||-NONE-|||1
A 113 114|||X|||w5|||REQUIRED|||-NONE-|||1
A 125 126|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 152 153|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 163 164|||X|||w4|||REQUIRED|||-NONE-|||1
A 170 172|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 179 180|||X|||w2|||REQUIRED|||-NONE-|||1
A 191 192|||X|||w13|||REQUIRED|||-NONE-|||1
A 194 195|||X|||w19|||REQUIRED|||-NONE-|||1
A 202 202|||X|||w29|||REQUIRED|||-NONE-|||1
A 213 213|||X|||w11|||REQUIRED|||-NONE-|||1
A 214 216|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 216 217|||X|||w12|||REQUIRED|||-NONE-|||1
A 220 221|||X|||w4|||REQUIRED|||-NONE-|||1
A 254 256|||X|||-NONE-|||REQUIRED|||-NONE-|||1

S w23 w3 w29 w31 w31 w21 w21 w18 w27 w29 w27 w19 w11 w25 w2 w28 , w22 w24 w21 w9 w16 w20 w30 w15 w28 w4 w8 w32 w31 w1 w28 w16 of w20 . , w30 w4 w22 w24 w2 of w31 w17 w30 of w2 w1 a w15 w3 w10 w1 w5 w7 w22 w31 w30 w31 w30 w7 w13 of to w4 w22 w10 w24 w29 w0 w29 w19 w23 w6 w26 w7 w4 w28 w15 w1 w22 w18 w32 w17 . w21 w22 w11 w29 w20 w16 w18 of w25 w18 w10 w31 w16 w3 w7 w10 w4 w5 to w22 , . w4 w8 a w14 w33 w26 w7 w32 w29 of w24 w24 w30 w5 w30 w31 w10 w25 w5 w21 w33 w17 w23 w22 w1 w22 w22 w0 w0 w26 w30 w2 w16 w20 w9 w21 w29 w0 the w1 w25 w20 w13 w2 the w25 w18 w20 w9 w12 w13 w33 w25 w13 to w15 w12 w23 w7 w31 the w6 the w13 w23 w3 w13 w2 w29 of w8 w7 w31 w31 w18 w2 w33 w0 to w7 w2 w3 w29 , w7 w15 w14 w6 w25 , of w12 , w23 w7 w9 w20 w5 w28 w9 of w13 w11
A 16 16|||X|||w21|||REQUIRED|||-NONE-|||0
A 17 18|||X|||w22|||REQUIRED|||-NONE-|||0
A 48 48|||X|||w21|||REQUIRED|||-NONE-|||0
A 65 66|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 68 69|||X|||w2|||REQUIRED|||-NONE-|||0
A 79 80|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 96 98|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 110 111|||X|||w2|||REQUIRED|||-NONE-|||0
A 112 114|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 128 129|||X|||w17|||REQUIRED|||-NONE-|||0
A 151 151|||X|||w12|||REQUIRED|||-NONE-|||0
A 169 170|||X|||w23|||REQUIRED|||-NONE-|||0
A 179 180|||X|||w0|||REQUIRED|||-NONE-|||0
A 187 189|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 196 197|||X|||w9|||REQUIRED|||-NONE-|||0
A 48 48|||X|||w21|||REQUIRED|||-NONE-|||1
A 59 60|||X|||w0|||REQUIRED|||-NONE-|||1
A 65 66|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 75 75|||X|||w21|||REQUIRED|||-NONE-|||1
A 82 83|||X|||w24|||REQUIRED|||-NONE-|||1
A 112 114|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 128 129|||X|||w17|||REQUIRED|||-NONE-|||1
A 140 141|||X|||w27|||REQUIRED|||-NONE-|||1
A 151 151|||X|||w12|||REQUIRED|||-NONE-|||1
A 156 157|||X|||of|||REQUIRED|||-NONE-|||1
A 179 180|||X|||w0|||REQUIRED|||-NONE-|||1
A 187 189|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 196 197|||X|||w9|||REQUIRED|||-NONE-|||1

S w23 w23 w23 w0 w0 . . w29 w6 w0 w32 w30 w16 w31 a the w31 w0 w0 w27 w24 w7 w20 , . w2 w22 w16 w26 w30 w28 w30 w23 w27 to w32 w4 w24 w28 w2 w6 w0 w17 w3 w12 w12 w12 w3 w26 w12 a the w23 w27 w21 w19 w19 w3 w7 w1 w8 w7 , w16 w16 w31 of w21 w16 w21 w26 w14 w33 w9 w28 . w2 w10 w29 of , w3 w10 w6 w1 w29 to w18 w6 . w4 the w18 w32 w28 w6 w5 w18 w4 w9 w6 w22 w0 w31 w3 w20 w21
A 17 17|||X|||w0|||REQUIRED|||-NONE-|||0
A 29 29|||X|||w16|||REQUIRED|||-NONE-|||0
A 41 41|||X|||w23|||REQUIRED|||-NONE-|||0
A 51 51|||X|||w21 w12 w12|||REQUIRED|||-NONE-|||0
A 51 51|||X|||the|||REQUIRED|||-NONE-|||0
A 58 60|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 64 64|||X|||the|||REQUIRED|||-NONE-|||0
A 69 69|||X|||w17|||REQUIRED|||-NONE-|||0
A 82 84|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 89 90|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 94 94|||X|||w7|||REQUIRED|||-NONE-|||0
A 105 107|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 17 17|||X|||w22|||REQUIRED|||-NONE-|||1
A 17 17|||X|||w0|||REQUIRED|||-NONE-|||1
A 19 20|||X|||w29|||REQUIRED|||-NONE-|||1
A 24 24|||X|||w14 w5 w13|||REQUIRED|||-NONE-|||1
A 41 41|||X|||w29|||REQUIRED|||-NONE-|||1
A 51 51|||X|||w21 w12 w12|||REQUIRED|||-NONE-|||1
A 52 53|||X|||w19|||REQUIRED|||-NONE-|||1
A 58 60|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 64 64|||X|||the|||REQUIRED|||-NONE-|||1
A 82 84|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 89 90|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 105 106|||X|||w11|||REQUIRED|||-NONE-|||1
A 105 107|||X|||-NONE-|||REQUIRED|||-NONE-|||1

S w22 w17 a , w13 w29 w24 w17 w6 w9 of w29 w5 w5 w9 w10 w13 w0 w25 of the w29 w14 w27 w24 w5 w19 w18 w9 w25 w5 , w12 to w21 w4 w19 w21 of w26 w33 w13 w19 w4 w9 to w1 w14 w13 w19 w33 w16 w6 w15 the w4 of w15 w16 w19 w9 w3 w7 w23 w23 w29 w0 w15 w13 w4 w25 w4 w30 w25 to w16 w10 w20 a w16 the w26 w15 a w24 w32 w26 w7 w4 w11 w7 . w2 w9 w26 w3 w27 w9 w23 w31 w32 , w28 w22 w18 w4 . w17 w16 w10 w16 w22 w21 the w13 a w30 w24 w17 w25 w18 , w12 w1 w17 w21
A 15 16|||X|||w20|||REQUIRED|||-NONE-|||0
A 32 32|||X|||w31|||REQUIRED|||-NONE-|||0
A 47 49|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 48 48|||X|||w27|||REQUIRED|||-NONE-|||0
A 50 51|||X|||w31|||REQUIRED|||-NONE-|||0
A 58 59|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 70 70|||X|||w6|||REQUIRED|||-NONE-|||0
A 76 76|||X|||w2 w29|||REQUIRED|||-NONE-|||0
A 97 97|||X|||w22|||REQUIRED|||-NONE-|||0
A 102 103|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 108 108|||X|||w26|||REQUIRED|||-NONE-|||0
A 117 119|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 122 123|||X|||w10|||REQUIRED|||-NONE-|||0
A 12 13|||X|||w30|||REQUIRED|||-NONE-|||1
A 15 16|||X|||w20|||REQUIRED|||-NONE-|||1
A 23 24|||X|||w5|||REQUIRED|||-NONE-|||1
A 31 32|||X|||,|||REQUIRED|||-NONE-|||1
A 32 32|||X|||w31|||REQUIRED|||-NONE-|||1
A 47 49|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 52 53|||X|||w20|||REQUIRED|||-NONE-|||1
A 58 59|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 70 70|||X|||w29|||REQUIRED|||-NONE-|||1
A 80 82|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 97 97|||X|||w22|||REQUIRED|||-NONE-|||1
A 102 103|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 117 119|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 122 123|||X|||w10|||REQUIRED|||-NONE-|||1

S w8 w29 w19 w8 w26 w27 of w15 w17 w30 to w18 the w26 w1 w28 w9 w20 w0 w4 w2 w26 w6 w14 w22 w23 w4 w6 w21 w1 w15 w5 w12 to w24 w0 w27 w9 w32 w25 w14 w19 w23 the a w27 w22 w32 w2 w11 w9 w14 w24 w4 w0 w18 w26 w30 to w32 w32 w11 w17 w22 w10 w33 w13 , w6 w19 w17 w11 w3 w6 w10 w27 w11 . , w6 of w7 w23 w6 w5 w16 . w5 w8 w13 w24 w7 w15 the of w18 w0 w22 w27 w18 w7 w16 w20 w13 . w25 w13 w25 w17 w21 w6 w27 w0 w2 w30 w2 w30 w17 w20 w9 w25 w19 w29 w14 w20 , w21 w8 w32 the w23 w15 the w28 w13 w7 w5 w31 w11 of , w15 w25 to w23 w27 to w16 w25 w20 the w33 , w6 w0 w28 w23 w14 w18 w28 w31 w2
A 8 9|||X|||w20|||REQUIRED|||-NONE-|||0
A 18 19|||X|||w3|||REQUIRED|||-NONE-|||0
A 18 19|||X|||w29|||REQUIRED|||-NONE-|||0
A 82 82|||X|||a|||REQUIRED|||-NONE-|||0
A 103 104|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 114 115|||X|||w15|||REQUIRED|||-NONE-|||0
A 117 119|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 121 122|||X|||w12|||REQUIRED|||-NONE-|||0
A 124 125|||X|||w32|||REQUIRED|||-NONE-|||0
A 141 142|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 153 154|||X|||w7|||REQUIRED|||-NONE-|||0
A 3 4|||X|||w1|||REQUIRED|||-NONE-|||1
A 14 14|||X|||w3 w13|||REQUIRED|||-NONE-|||1
A 33 35|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 47 48|||X|||w12|||REQUIRED|||-NONE-|||1
A 64 66|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 90 91|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 103 104|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 117 119|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 135 135|||X|||w4|||REQUIRED|||-NONE-|||1
A 153 154|||X|||w7|||REQUIRED|||-NONE-|||1

S w24 w21 w2 w7 w5 w3 w11 w22 w21 w26 a a w21 w17 w31 w30 w2 w4 w5 w10 w14 w29 w13 w24 w12 w2 w27 w17 w18 w20 a w6 of w11 w33 w6 w27 to a w28 w9 w29 w20 w30 w28 w6 w18 the a the w7 w12 w6 a w0 w13 w9 w23 w30 of the w32 w7 w14 w23 . w31 w31 w18 the w7 of w9 w33 w0 to w13 w18 w3 w8 w25 , w3 w29 w1 w28 w19 w4 w8 w0 w0 w25 the the w12 w6 w17 w0 w20 w2 w9 w13 , w12 w21 w24 w28 w31 w16 w23 w24 w5 w15 w13 . w10 w1 the w2 w4 w27 w7 w4 w6 , to w13 w23 w15 w2 w32 w18 w8 w18 w8 w16 w26 w13 w21 w25 w4 w3 w13 w22 w24 w22 w13 w4 w10 w29 w4 w6 w20 w23 w12 w26 w15 the w12 w24 w13 w33 w5 w2 w1 w31 w20 , w22 w11 w11 w17 w2 to w24 w20 w29 w6 w0 w6 w0 w28 w2 w29 w24 w21 w1 w9 w13 w12 w25 . w14 w24 w22 w13 w8 w20 w26 w29 w1 w3 w5 . w4 w23 w22 w6 w27 w22 w0 w33 w18 w26 w16 a w7 w25 w8 w6 w27 w16 w24 w6 the , w11 , w5 w27 of w11 . of w5 w33 w2 a w16 w28 w24 w26 w0 w10 to w25 w27 w5 to . w10 w21 w29 , w32 w4 w22 w6 w23 w0 w13 w31 w26 w28 w3 the w15 to w20 w24 , w5 w31 w0 w3 w4 w10 w16 w15 of w7 of w28 w4 w8 w14 w20 w26 w28 w24 w18 w28 w7 w13 w10 w23 w24 a w30 w7 w11 w1 w31 w31 w30 , w17 w3 to w24 w11 the w33 w20 w23 w30 w21
A 1 2|||X|||w22|||REQUIRED|||-NONE-|||0
A 9 10|||X|||.|||REQUIRED|||-NONE-|||0
A 13 14|||X|||to|||REQUIRED|||-NONE-|||0
A 25 26|||X|||w1|||REQUIRED|||-NONE-|||0
A 64 66|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 75 76|||X|||w0|||REQUIRED|||-NONE-|||0
A 80 80|||X|||to w20 w33|||REQUIRED|||-NONE-|||0
A 86 86|||X|||w10 w4 w23|||REQUIRED|||-NONE-|||0
A 90 92|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 103 103|||X|||w18 w0 w27|||REQUIRED|||-NONE-|||0
A 106 107|||X|||w5|||REQUIRED|||-NONE-|||0
A 116 118|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 135 136|||X|||w22|||REQUIRED|||-NONE-|||0
A 139 139|||X|||w10 w16 w30|||REQUIRED|||-NONE-|||0
A 169 171|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 182 184|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 191 192|||X|||w25|||REQUIRED|||-NONE-|||0
A 196 197|||X|||w28|||REQUIRED|||-NONE-|||0
A 232 232|||X|||w20 w13|||REQUIRED|||-NONE-|||0
A 243 244|||X|||w13|||REQUIRED|||-NONE-|||0
A 244 245|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 258 260|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 296 297|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 304 306|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 307 307|||X|||a|||REQUIRED|||-NONE-|||0
A 1 2|||X|||w33|||REQUIRED|||-NONE-|||1
A 13 14|||X|||to|||REQUIRED|||-NONE-|||1
A 31 32|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 50 51|||X|||w8|||REQUIRED|||-NONE-|||1
A 64 66|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 80 80|||X|||to w20 w33|||REQUIRED|||-NONE-|||1
A 86 86|||X|||w10 w4 w23|||REQUIRED|||-NONE-|||1
A 90 92|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 139 139|||X|||w10 w16 w30|||REQUIRED|||-NONE-|||1
A 169 171|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 182 184|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 191 192|||X|||w25|||REQUIRED|||-NONE-|||1
A 196 197|||X|||w28|||REQUIRED|||-NONE-|||1
A 208 208|||X|||w27|||REQUIRED|||-NONE-|||1
A 208 209|||X|||w7|||REQUIRED|||-NONE-|||1
A 224 225|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 232 232|||X|||w20 w13|||REQUIRED|||-NONE-|||1
A 244 245|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 265 266|||X|||of|||REQUIRED|||-NONE-|||1
A 282 283|||X|||w14|||REQUIRED|||-NONE-|||1
A 296 297|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 296 297|||X|||w3|||REQUIRED|||-NONE-|||1
A 304 306|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 305 305|||X|||w10|||REQUIRED|||-NONE-|||1

S . w30 a w13 the w33 w8 w2 w33 w18 w0 w33 a of w29 w1 w11 , w29 to w23 w7 w27 w15 w5 w32 w13 w28 a w18 w7 w8 w23 w3 of w26 w28 w9 w8 w19 w18 w33 w31 w1 w23 w11 w15 w17 . , w5 w11 w19 w9 w22 w19 w17 w7 to a w19 w31 w27 w2 w4 w3 w26 w26 . w32 w10 w33 w8 , w30 w12 w32 w4 w14 w26 w31 w11 , the w15 w12 w19 w17 w22 of , w8 w23 . w27 w23 w10 w5 w33 w11 w21 w30 w16 a w17 w10 w14 w31 . w11 w13 w21 w25 w28 w31 . a w5 w3 w16 . w11 w33 w28 w10 w4 w5 w5 w12 w10 w2 w1 w9 w2 w7 of w28 w22 w15 w20 of w28 w16 w16 w16 w16 the w5 w21 w27 w1 w17 w5 w20 w33 w26 w8 w3 w18 w25 w12 w31 w23 w23 w4 w11 a w13 w18 w33 to w0 w30 w32 w4 w25 of w24 w4 w11 w20 w3 to w31 w26 w26 . w11 w33 to . w27 a w16 w11 w2 w3 w18 w17 w18 w24 w9 w24 w29 w22 of w30 w26 w25 w17 w0 w23 w20 w10 w12 w3 w27 w21 w16 w33 w11 w28 w8 a w21 w12 w26 w20 w30 w31 w32 w12 w22 w13 w16 w9 w29 w11 w21 w27
A 38 38|||X|||w4 , w8|||REQUIRED|||-NONE-|||0
A 54 55|||X|||w29|||REQUIRED|||-NONE-|||0
A 57 58|||X|||w6|||REQUIRED|||-NONE-|||0
A 71 72|||X|||to|||REQUIRED|||-NONE-|||0
A 86 87|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 94 94|||X|||of|||REQUIRED|||-NONE-|||0
A 102 103|||X|||w10|||REQUIRED|||-NONE-|||0
A 134 135|||X|||of|||REQUIRED|||-NONE-|||0
A 135 137|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 138 139|||X|||a|||REQUIRED|||-NONE-|||0
A 147 147|||X|||w27 , w16|||REQUIRED|||-NONE-|||0
A 149 149|||X|||w30|||REQUIRED|||-NONE-|||0
A 151 151|||X|||w10|||REQUIRED|||-NONE-|||0
A 162 163|||X|||w28|||REQUIRED|||-NONE-|||0
A 179 180|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 184 185|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 192 192|||X|||w28|||REQUIRED|||-NONE-|||0
A 208 208|||X|||w6 w0|||REQUIRED|||-NONE-|||0
A 208 208|||X|||w23|||REQUIRED|||-NONE-|||0
A 223 223|||X|||w31|||REQUIRED|||-NONE-|||0
A 228 228|||X|||w32 w12 the|||REQUIRED|||-NONE-|||0
A 238 239|||X|||the|||REQUIRED|||-NONE-|||0
A 13 13|||X|||w31 w25|||REQUIRED|||-NONE-|||1
A 31 31|||X|||w2|||REQUIRED|||-NONE-|||1
A 38 38|||X|||w4 , w8|||REQUIRED|||-NONE-|||1
A 51 51|||X|||w14 , w20|||REQUIRED|||-NONE-|||1
A 57 58|||X|||w6|||REQUIRED|||-NONE-|||1
A 64 66|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 71 72|||X|||to|||REQUIRED|||-NONE-|||1
A 86 87|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 94 94|||X|||w3 w1|||REQUIRED|||-NONE-|||1
A 96 97|||X|||to|||REQUIRED|||-NONE-|||1
A 102 103|||X|||w10|||REQUIRED|||-NONE-|||1
A 118 118|||X|||w33|||REQUIRED|||-NONE-|||1
A 135 137|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 162 163|||X|||w28|||REQUIRED|||-NONE-|||1
A 168 169|||X|||w26|||REQUIRED|||-NONE-|||1
A 177 177|||X|||w19|||REQUIRED|||-NONE-|||1
A 179 180|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 187 188|||X|||the|||REQUIRED|||-NONE-|||1
A 192 192|||X|||w28|||REQUIRED|||-NONE-|||1
A 208 208|||X|||w6 w0|||REQUIRED|||-NONE-|||1
A 208 208|||X|||w23|||REQUIRED|||-NONE-|||1
A 209 210|||X|||w13|||REQUIRED|||-NONE-|||1
A 228 228|||X|||w32 w12 the|||REQUIRED|||-NONE-|||1
A 236 237|||X|||w29|||REQUIRED|||-NONE-|||1

S under were told under dog we
A 2 2|||X|||sat|||REQUIRED|||-NONE-|||0
A 2 2|||X|||mat|||REQUIRED|||-NONE-|||0
A 2 2|||X|||sat on|||REQUIRED|||-NONE-|||0
A 3 4|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 4 5|||X|||a|||REQUIRED|||-NONE-|||0
A 1 1|||X|||mat .|||REQUIRED|||-NONE-|||1
A 1 1|||X|||mat a|||REQUIRED|||-NONE-|||1
A 3 4|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 4 5|||X|||mat|||REQUIRED|||-NONE-|||1

S under told we under sits sits rug were
A 1 2|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 2 2|||X|||the sat|||REQUIRED|||-NONE-|||0
A 2 2|||X|||mat|||REQUIRED|||-NONE-|||0
A 2 2|||X|||. the|||REQUIRED|||-NONE-|||0
A 2 3|||X|||a|||REQUIRED|||-NONE-|||0
A 1 1|||X|||a on|||REQUIRED|||-NONE-|||1
A 1 1|||X|||.|||REQUIRED|||-NONE-|||1
A 1 1|||X|||cat|||REQUIRED|||-NONE-|||1
A 1 2|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 2 3|||X|||mat|||REQUIRED|||-NONE-|||1

S under were sits were told told we dog sits
A 4 5|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 5 6|||X|||the|||REQUIRED|||-NONE-|||0
A 6 6|||X|||mat|||REQUIRED|||-NONE-|||0
A 6 6|||X|||the sat|||REQUIRED|||-NONE-|||0
A 6 6|||X|||.|||REQUIRED|||-NONE-|||0
A 3 4|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 4 5|||X|||sat|||REQUIRED|||-NONE-|||1
A 6 6|||X|||.|||REQUIRED|||-NONE-|||1
A 6 6|||X|||. sat|||REQUIRED|||-NONE-|||1
A 6 6|||X|||.|||REQUIRED|||-NONE-|||1

S rug under were dog dog under rug told were
A 6 7|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 7 8|||X|||on|||REQUIRED|||-NONE-|||0
A 8 8|||X|||.|||REQUIRED|||-NONE-|||0
A 8 8|||X|||the|||REQUIRED|||-NONE-|||0
A 8 8|||X|||sat|||REQUIRED|||-NONE-|||0
A 2 2|||X|||the sat|||REQUIRED|||-NONE-|||1
A 2 2|||X|||the|||REQUIRED|||-NONE-|||1
A 2 2|||X|||cat sat|||REQUIRED|||-NONE-|||1
A 4 5|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 5 6|||X|||a|||REQUIRED|||-NONE-|||1

S rug were were rug under told told
A 2 2|||X|||the mat|||REQUIRED|||-NONE-|||0
A 2 2|||X|||on on|||REQUIRED|||-NONE-|||0
A 2 3|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 3 4|||X|||a|||REQUIRED|||-NONE-|||0
A 2 3|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 3 4|||X|||sat|||REQUIRED|||-NONE-|||1
A 5 5|||X|||on sat|||REQUIRED|||-NONE-|||1
A 5 5|||X|||cat|||REQUIRED|||-NONE-|||1

S we dog under told red rug dog we we
A 5 6|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 6 7|||X|||mat|||REQUIRED|||-NONE-|||0
A 7 7|||X|||.|||REQUIRED|||-NONE-|||0
A 7 7|||X|||.|||REQUIRED|||-NONE-|||0
A 7 7|||X|||the .|||REQUIRED|||-NONE-|||0
A 3 3|||X|||mat mat|||REQUIRED|||-NONE-|||1
A 3 3|||X|||on|||REQUIRED|||-NONE-|||1
A 3 3|||X|||mat on|||REQUIRED|||-NONE-|||1
A 5 6|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 6 7|||X|||cat|||REQUIRED|||-NONE-|||1

S rug we were dog under told
A 1 1|||X|||sat|||REQUIRED|||-NONE-|||0
A 1 1|||X|||sat mat|||REQUIRED|||-NONE-|||0
A 4 5|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 5 6|||X|||.|||REQUIRED|||-NONE-|||0
A 0 1|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 1 1|||X|||. mat|||REQUIRED|||-NONE-|||1
A 1 1|||X|||mat|||REQUIRED|||-NONE-|||1
A 1 2|||X|||a|||REQUIRED|||-NONE-|||1

S under red we red dog rug red under sits
A 2 2|||X|||the|||REQUIRED|||-NONE-|||0
A 2 2|||X|||cat mat|||REQUIRED|||-NONE-|||0
A 2 2|||X|||sat the|||REQUIRED|||-NONE-|||0
A 2 3|||X|||-NONE-|||REQUIRED|||-NONE-|||0
A 3 4|||X|||on|||REQUIRED|||-NONE-|||0
A 3 4|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A 4 5|||X|||mat|||REQUIRED|||-NONE-|||1
A 7 7|||X|||. a|||REQUIRED|||-NONE-|||1
A 7 7|||X|||a mat|||REQUIRED|||-NONE-|||1

