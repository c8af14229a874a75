package businessman

// Rules are the numbers of the rules that a rules version fixes. A rules
// change that alters outcomes is made as a new version: a new entry of
// Rulebook (with whatever number or switch the change needs here) and a
// new CurrentRules. A game keeps the version it was made with — the
// service records it — so a game in play goes on, and a finished game
// replays and charts its history, under its own rules.
type Rules struct {
	StartBonus int64 // B-5: paid for passing Start
	// OpenDeals: a deal waits for its answer without stalling the turn,
	// and a seat may keep a purchase for later (engine.Deal): the
	// play-by-mail reading of version 3, see DECISIONS.md.
	OpenDeals bool
}

// Rulebook holds every rules version this engine plays. Version 1 was the
// rules before issue 11 made them as the texts say; its code is not kept
// (games made under it replay under version 2 only if that changes
// nothing).
var Rulebook = map[int]Rules{
	2: {StartBonus: StartBonus},
	3: {StartBonus: StartBonus, OpenDeals: true}, // issue 23: deals that do not stall a turn
}

// CurrentRules is the version new games are made with.
var CurrentRules = 3
