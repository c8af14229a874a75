package leagues_test

// The season TestSeasonOfThreeDivisions plays, as it played it: each
// table's places with the points they earn and the net worth (the engine's
// Score, as the game stood at the round's close where finished=false).
const wantTables = `R1 D1 finished=true: 1.Fyodor(10, nw 377600) 2.Anna(6, nw 365000) 3.Galina(3, nw 310800) 4.Boris(1, nw 307600)
R1 D1 finished=true: 1.Denis(9, nw 390000) 2.Elena(4.5, nw 305400) 3.Clara(1.5, nw 294600)
R1 D2 finished=true: 1.Irina(10, nw 397400) 2.Nikita(6, nw 317600) 3.Hugo(3, nw 220400) 4.Jakob(1, nw 213600)
R1 D2 finished=true: 1.Marta(9, nw 460000) 2.Lev(4.5, nw 359000) 3.Kira(1.5, nw 311000)
R1 D3 finished=true: 1.Stepan(10, nw 382000) 2.Ulrich(6, nw 273000) 3.Rita(3, nw 250000) 4.Olga(1, nw 149000)
R1 D3 finished=true: 1.Tanya(9, nw 352000) 2.Pavel(4.5, nw 311000) 3.Quinn(1.5, nw 308000)
R2 D1 finished=true: 1.Fyodor(10, nw 384000) 2.Anna(6, nw 351000) 3.Clara(3, nw 305000) 4.Elena(1, nw 259000)
R2 D1 finished=true: 1.Denis(9, nw 401200) 2.Galina(4.5, nw 384400) 3.Boris(1.5, nw 356400)
R2 D2 finished=true: 1.Nikita(10, nw 342000) 2.Marta(6, nw 310000) 3.Irina(3, nw 302000) 4.Kira(1, nw 272000)
R2 D2 finished=true: 1.Lev(9, nw 388000) 2.Hugo(4.5, nw 331000) 3.Jakob(1.5, nw 277000)
R2 D3 finished=true: 1.Ulrich(10, nw 438200) 2.Pavel(6, nw 402200) 3.Quinn(3, nw 288600) 4.Olga(1, nw 259000)
R2 D3 finished=true: 1.Tanya(9, nw 337400) 2.Stepan(4.5, nw 296600) 3.Rita(1.5, nw 275000)
R3 D1 finished=true: 1.Elena(10, nw 399600) 2.Denis(6, nw 297400) 3.Galina(3, nw 267000) 4.Fyodor(1, nw 249000)
R3 D1 finished=true: 1.Clara(9, nw 332000) 2.Boris(4.5, nw 330000) 3.Anna(1.5, nw 324000)
R3 D2 finished=false: 1.Kira(10, nw 392000) 2.Hugo(6, nw 309000) 3.Irina(3, nw 308600) 4.Lev(1, nw 257400)
R3 D2 finished=true: 1.Jakob(9, nw 410000) 2.Nikita(4.5, nw 327000) 3.Marta(1.5, nw 265000)
R3 D3 finished=true: 1.Pavel(10, nw 372000) 2.Stepan(6, nw 347000) 3.Quinn(3, nw 334000) 4.Rita(1, nw 282000)
R3 D3 finished=true: 1.Tanya(9, nw 329000) 2.Olga(4.5, nw 300000) 3.Ulrich(1.5, nw 250000)
R4 D1 finished=true: 1.Denis(10, nw 415600) 2.Anna(6, nw 367400) 3.Boris(3, nw 294000) 4.Elena(1, nw 289000)
R4 D1 finished=true: 1.Clara(9, nw 368400) 2.Fyodor(4.5, nw 367000) 3.Galina(1.5, nw 208600)
R4 D2 finished=true: 1.Hugo(10, nw 330000) 2.Jakob(6, nw 325000) 3.Marta(3, nw 315000) 4.Kira(1, nw 301000)
R4 D2 finished=true: 1.Lev(9, nw 393000) 2.Irina(4.5, nw 347000) 3.Nikita(1.5, nw 324000)
R4 D3 finished=true: 1.Tanya(10, nw 396000) 2.Pavel(6, nw 354000) 3.Rita(3, nw 316000) 4.Ulrich(1, nw 242000)
R4 D3 finished=true: 1.Stepan(9, nw 390000) 2.Quinn(4.5, nw 309600) 3.Olga(1.5, nw 230400)
`

// wantStandings is the season table of each division: rank, member,
// points/net worth summed over the season. Checked by hand from the
// tables above with the point table (league.PlacePoints): 10/6/3/1 at a
// table of four, 9/4.5/1.5 at a table of three (10/6/3/1 is 20 points for
// 4 seats, 5 a seat; a table of three keeps the shape 6/3/1 scaled to 15
// points); members level at a table share the points of their places.
// Each division has 140 points in all: 4 rounds of a table of four (20)
// and one of three (15). Round by round (R1 R2 R3 R4 = total):
//
// Division 1:
//
//	Denis   9   + 9   + 6   + 10  = 34
//	Fyodor  10  + 10  + 1   + 4.5 = 25.5
//	Clara   1.5 + 3   + 9   + 9   = 22.5
//	Anna    6   + 6   + 1.5 + 6   = 19.5
//	Elena   4.5 + 1   + 10  + 1   = 16.5
//	Galina  3   + 4.5 + 3   + 1.5 = 12
//	Boris   1   + 1.5 + 4.5 + 3   = 10
//
// Division 2:
//
//	Lev     4.5 + 9   + 1   + 9   = 23.5
//	Hugo    3   + 4.5 + 6   + 10  = 23.5
//	Nikita  6   + 10  + 4.5 + 1.5 = 22
//	Irina   10  + 3   + 3   + 4.5 = 20.5
//	Marta   9   + 6   + 1.5 + 3   = 19.5
//	Jakob   1   + 1.5 + 9   + 6   = 17.5
//	Kira    1.5 + 1   + 10  + 1   = 13.5
//
// Lev and Hugo are level on 23.5 points; net worth puts Lev ahead (1397400
// against 1190400).
//
// Division 3:
//
//	Tanya   9   + 9   + 9   + 10  = 37
//	Stepan  10  + 4.5 + 6   + 9   = 29.5
//	Pavel   4.5 + 6   + 10  + 6   = 26.5
//	Ulrich  6   + 10  + 1.5 + 1   = 18.5
//	Quinn   1.5 + 3   + 3   + 4.5 = 12
//	Rita    3   + 1.5 + 1   + 3   = 8.5
//	Olga    1   + 1   + 4.5 + 1.5 = 8
//
// Kira vanished after joining: her seats were played by her standing
// orders, her deadlines' defaults and the bot, and their results count
// for her.
//
// Games still running at their round's close (1) count as they stood.
const wantStandings = `D1: 1.Denis 34/1504200 2.Fyodor 25.5/1377600 3.Clara 22.5/1300000 4.Anna 19.5/1407400 5.Elena 16.5/1253000 6.Galina 12/1170800 7.Boris 10/1288000
D2: 1.Lev 23.5/1397400 2.Hugo 23.5/1190400 3.Nikita 22/1310600 4.Irina 20.5/1355000 5.Marta 19.5/1350000 6.Jakob 17.5/1225600 7.Kira 13.5/1276000
D3: 1.Tanya 37/1414400 2.Stepan 29.5/1415600 3.Pavel 26.5/1439200 4.Ulrich 18.5/1203200 5.Quinn 12/1240200 6.Rita 8.5/1123000 7.Olga 8/938400
`

// Promotion and relegation, one a border (Swap 1): Boris (last of division
// 1) and Lev (first of 2) change places; Kira (last of division 2) and
// Tanya (first of 3) change places; each arrives at the end of their new
// division.
const (
	wantProposal = "[[Denis Fyodor Clara Anna Elena Galina Lev] [Hugo Nikita Irina Marta Jakob Boris Tanya] [Stepan Pavel Ulrich Quinn Rita Olga Kira]]"
	wantMoves    = "[{Boris 0 1 false} {Lev 1 0 false} {Kira 1 2 false} {Tanya 2 1 false}]"
)
