// Package leaguerules is the pure core of league play: seating a season's
// rounds, points and the season table, promotion and relegation, and a
// multi-player rating across seasons. It does no I/O and knows no store,
// mail or clock; the service keeps a league's members, seasons and games
// and calls these functions (SPEC §1 "League organisers", issue 14).
//
// # Seating (seating.go)
//
// A season has R rounds; each round seats all of a division's members at
// tables. TableSizes picks the tables: sizes differ by at most one and lie
// within the game's seat limits (2 to 6 for both games); among the table
// counts that allow this it takes the one whose largest distance from the
// league's table size is least, then whose total distance is least, then
// the one with more tables (a smaller table finishes sooner by mail).
// With tables of 4: 7 members sit 4+3, 9 sit 5+4, 10 sit 4+3+3, 13 sit
// 5+4+4, 21 sit 5+4+4+4+4.
//
// Seat then plans the season from a seed, to three aims in this order:
// every pair meets about equally often (the cost of a pair is the fourth
// power of its distance from the season's mean meetings, so a pair that
// never meets or meets once too often costs more than a few pairs a little
// off); members take turns at the smaller tables; each member sits in each
// seat position (turn order) about equally. Each round is first chosen
// greedily by local search, then the whole season is improved by simulated
// annealing and last the seats are ordered (the first seat, which moves
// first, weighs thrice); of four such plans the cheapest is kept. The same
// seed gives the same plan. Perfect spreads are often impossible (the tests state the bounds
// reached, and for 7 members × 4 rounds show the bound is the best there is).
//
// # Points and the season table (points.go, standings.go)
//
// A table of four pays 10/6/3/1 points by place. Other sizes keep that
// shape, triangular numbers from the last place (1, 3, 6, 10, 15, 21),
// scaled so each table pays 5 points a seat on average: 2 players 7.5/2.5;
// 3: 9/4.5/1.5; 5: 10.71/7.14/4.29/2.14/0.71; 6: 11.25/8.04/5.36/3.21/
// 1.61/0.54. So a member's expected points do not depend on the size of
// the tables they were given. Points are kept in hundredths.
//
// Places come from the engine's Score (engine.Rank: by net worth, the
// bankrupt last, W-40 / B-0). A game still running when its round closes
// is scored the same way, by net worth as it stands (Table.Finished false).
// Members level at a table (equal net worth, both bankrupt or both not)
// share the points of the places they span.
//
// A division's season table orders members by points, then net worth
// summed over their games, then head to head among those still tied (two
// for each game finished ahead of another of the tied, one for each level
// finish). Members tied after that share a rank and are listed by name.
//
// # Promotion and relegation (promotion.go)
//
// Divisions are ordered, the first the top. At a season's end, between each
// two neighbouring divisions the top Swap of the lower go up and the bottom
// Swap of the upper go down, so divisions keep their sizes; a division
// needs at least 2·Swap members. A move decided between members who share
// a rank is flagged (Move.Tied) for the organiser. NextSeason then takes
// out those who leave and puts those who join in the bottom division: it is
// a proposal, which the organiser confirms or edits.
//
// # Rating (rating.go)
//
// Ratings follow Weng & Lin, "A Bayesian Approximation Method for Online
// Ranking" (JMLR 12, 2011), Plackett-Luce model (their Algorithm 4), with
// each player a team of one and OpenSkill's constants (mu 25, sigma 25/3,
// beta 25/6, kappa 0.0001, no tau). No maintained Go implementation is
// served by the module proxy, so it is written here and checked against
// openskill.js's reference values and Weng and Lin's own figures (their
// rank-1.02 program, as quoted by openskill.js) to 1e-8. A rating is shown
// as mu ± sigma and ranked by its ordinal, mu − 3·sigma. Games are rated
// in round order; level results count as a tie.
//
// # Seats not played by their member
//
// A seat played by standing orders, a bot or a substitute the organiser
// seated still counts for the member seated there (Result.Member is the
// league member), so a round's tables always hand out the same points.
package leaguerules
