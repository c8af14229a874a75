package leagues_test

// The season TestSeasonOfThreeDivisions plays, as it played it: each
// table's places with the points they earn and the net worth (the engine's
// Score, as the game stood at the round's close where finished=false).
const wantTables = `R1 D1 finished=true: 1.Anna(10, nw 365000) 2.Fyodor(6, nw 353600) 3.Galina(3, nw 310800) 4.Boris(1, nw 307600)
R1 D1 finished=true: 1.Denis(9, nw 390000) 2.Elena(4.5, nw 305400) 3.Clara(1.5, nw 294600)
R1 D2 finished=true: 1.Irina(10, nw 403800) 2.Nikita(6, nw 306600) 3.Jakob(3, nw 246200) 4.Hugo(1, nw 220400)
R1 D2 finished=true: 1.Marta(9, nw 412000) 2.Lev(4.5, nw 367000) 3.Kira(1.5, nw 301000)
R1 D3 finished=true: 1.Stepan(10, nw 384000) 2.Rita(6, nw 285000) 3.Ulrich(3, nw 266000) 4.Olga(1, nw 144500)
R1 D3 finished=true: 1.Tanya(9, nw 349000) 2.Quinn(3, nw 311000) 3.Pavel(3, nw 311000)
R2 D1 finished=true: 1.Fyodor(10, nw 384000) 2.Anna(6, nw 351000) 3.Clara(3, nw 329000) 4.Elena(1, nw 259000)
R2 D1 finished=true: 1.Denis(9, nw 407200) 2.Galina(4.5, nw 380400) 3.Boris(1.5, nw 354400)
R2 D2 finished=true: 1.Nikita(10, nw 342000) 2.Marta(6, nw 310000) 3.Irina(3, nw 302000) 4.Kira(1, nw 272000)
R2 D2 finished=true: 1.Lev(9, nw 388000) 2.Hugo(4.5, nw 331000) 3.Jakob(1.5, nw 317000)
R2 D3 finished=true: 1.Ulrich(10, nw 459800) 2.Pavel(6, nw 405000) 3.Quinn(3, nw 283200) 4.Olga(1, nw 240000)
R2 D3 finished=true: 1.Tanya(9, nw 355400) 2.Stepan(4.5, nw 296600) 3.Rita(1.5, nw 257000)
R3 D1 finished=true: 1.Elena(10, nw 399600) 2.Denis(6, nw 312400) 3.Galina(3, nw 273000) 4.Fyodor(1, nw 243000)
R3 D1 finished=true: 1.Boris(9, nw 335000) 2.Clara(4.5, nw 332000) 3.Anna(1.5, nw 319000)
R3 D2 finished=false: 1.Kira(10, nw 395000) 2.Hugo(6, nw 350000) 3.Lev(3, nw 323400) 4.Irina(1, nw 321600)
R3 D2 finished=true: 1.Jakob(9, nw 410000) 2.Nikita(4.5, nw 322000) 3.Marta(1.5, nw 270000)
R3 D3 finished=true: 1.Pavel(10, nw 372000) 2.Stepan(6, nw 347000) 3.Quinn(3, nw 339000) 4.Rita(1, nw 287000)
R3 D3 finished=true: 1.Tanya(9, nw 324000) 2.Olga(4.5, nw 305000) 3.Ulrich(1.5, nw 250000)
R4 D1 finished=false: 1.Denis(10, nw 310000) 2.Boris(6, nw 290000) 3.Elena(3, nw 288000) 4.Anna(1, nw 278000)
R4 D1 finished=true: 1.Clara(9, nw 368400) 2.Fyodor(4.5, nw 367000) 3.Galina(1.5, nw 208600)
R4 D2 finished=false: 1.Hugo(10, nw 310000) 2.Kira(6, nw 281000) 3.Marta(3, nw 275000) 4.Jakob(1, nw 255000)
R4 D2 finished=true: 1.Lev(9, nw 400000) 2.Irina(4.5, nw 347000) 3.Nikita(1.5, nw 317000)
R4 D3 finished=true: 1.Tanya(10, nw 396000) 2.Pavel(6, nw 354000) 3.Rita(3, nw 316000) 4.Ulrich(1, nw 242000)
R4 D3 finished=true: 1.Stepan(9, nw 395000) 2.Olga(4.5, nw 230400) 3.Quinn(1.5, nw 214600)
`

// wantStandings is the season table of each division: rank, member,
// points/net worth summed over the season. Checked by hand from the
// tables above with the point table (league.PlacePoints): 10/6/3/1 at a
// table of four, 9/4.5/1.5 at a table of three (10/6/3/1 is 20 points for
// 4 seats, 5 a seat; a table of three keeps the shape 6/3/1 scaled to 15
// points); members level at a table share the points of their places.
//
// Division 1, round by round (R1 R2 R3 R4 = total):
//
//	Denis   9   + 9   + 6   + 10  = 34
//	Fyodor  6   + 10  + 1   + 4.5 = 21.5
//	Anna    10  + 6   + 1.5 + 1   = 18.5  net worth 365000+351000+319000+278000 = 1313000
//	Elena   4.5 + 1   + 10  + 3   = 18.5  net worth 305400+259000+399600+288000 = 1252000
//	Clara   1.5 + 3   + 4.5 + 9   = 18
//	Boris   1   + 1.5 + 9   + 6   = 17.5
//	Galina  3   + 4.5 + 3   + 1.5 = 12
//
// 140 points in all: 4 rounds of a table of four (20) and one of three
// (15). Anna and Elena are level on points; net worth puts Anna third.
// Round 4's four-seat game was still running at the close and counts as
// it stood (Denis 310000 ahead of Boris 290000).
//
// Division 2: Lev 4.5+9+3+9 = 25.5; Nikita 6+10+4.5+1.5 = 22; Hugo
// 1+4.5+6+10 = 21.5; Marta 9+6+1.5+3 = 19.5; Irina 10+3+1+4.5 = 18.5 and
// Kira (vanished) 1.5+1+10+6 = 18.5, Irina ahead on net worth (1374400
// against 1249000); Jakob 3+1.5+9+1 = 14.5. (Since issue 25 the league's
// organiser confirms their address before the season, so round 1's
// games start in the sweep that makes them, not the next: one of them,
// Hugo's and Jakob's, played out otherwise.) Kira's seats were played by
// her standing orders, her deadlines' defaults and (round 1) the bot: her
// win in round 3 and second place in round 4 are theirs, and count for her.
//
// Division 3: Tanya 9+9+9+10 = 37; Stepan 10+4.5+6+9 = 29.5; Pavel
// 3+6+10+6 = 25 (round 1: level with Quinn at 311000, places 2 and 3
// shared: (4.5+1.5)/2 = 3 each); Ulrich 3+10+1.5+1 = 15.5; Rita
// 6+1.5+1+3 = 11.5; Olga 1+1+4.5+4.5 = 11; Quinn 3+3+3+1.5 = 10.5.
const wantStandings = `D1: 1.Denis 34/1419600 2.Fyodor 21.5/1347600 3.Anna 18.5/1313000 4.Elena 18.5/1252000 5.Clara 18/1324000 6.Boris 17.5/1287000 7.Galina 12/1172800
D2: 1.Lev 25.5/1478400 2.Nikita 22/1287600 3.Hugo 21.5/1211400 4.Marta 19.5/1267000 5.Irina 18.5/1374400 6.Kira 18.5/1249000 7.Jakob 14.5/1228200
D3: 1.Tanya 37/1424400 2.Stepan 29.5/1422600 3.Pavel 25/1442000 4.Ulrich 15.5/1217800 5.Rita 11.5/1145000 6.Olga 11/919900 7.Quinn 10.5/1147800
`

// Promotion and relegation, one a border (Swap 1): Galina (last of
// division 1) and Lev (first of 2) change places, as do Jakob (last of 2)
// and Tanya (first of 3); each arrives at the end of their new division.
const (
	wantProposal = "[[Denis Fyodor Anna Elena Clara Boris Lev] [Nikita Hugo Marta Irina Kira Galina Tanya] [Stepan Pavel Ulrich Rita Olga Quinn Jakob]]"
	wantMoves    = "[{Galina 0 1 false} {Lev 1 0 false} {Jakob 1 2 false} {Tanya 2 1 false}]"
)
