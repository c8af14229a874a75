package race

// Rules are the numbers a rules version fixes. A change that alters
// outcomes is a new entry of Rulebook and a new CurrentRules; a game keeps
// the version it was made with.
type Rules struct {
	Sides    int   // the die's faces
	Rest     int64 // coins a rest gains
	MaxCoins int64 // a player may rest only while it holds fewer
	Finish   int64 // the score of reaching the finish
}

// Rulebook holds every rules version this engine plays: one.
var Rulebook = map[int]Rules{
	1: {Sides: 6, Rest: 1, MaxCoins: 5, Finish: 100},
}

// CurrentRules is the version new games are made with.
var CurrentRules = 1
