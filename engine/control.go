package engine

// The organiser's commands to the table (controls) that change the play.
// They are commands of the log like any other, so a game replays exactly
// (P-1) whatever its organiser did; every game takes them alike, through
// Check, Apply and Play.

// Organiser is the seat of the organiser's commands: they belong to no
// player.
const Organiser Seat = -2

// End is the organiser's command that ends the game now: it is scored by
// net worth as it stands (W-40, B-0), as a game that ran out of laps.
const End = "end_now"

// OverEnded says, in the Other of a game-over event, that the organiser
// ended the game (End).
const OverEnded = 3

// Ender is what a game's state gives for End: it ends the game where it
// stands, in place, appending its game-over event (Other: OverEnded).
type Ender interface {
	EndNow(ev []Event) []Event
}

// checkControl says why the organiser may not give a now, or nil.
func checkControl(over bool, a Action) error {
	switch {
	case over:
		return Refuse(ErrGameOver, Organiser, a, "")
	case a != Action{Type: End}:
		return Refuse(ErrIllegalAction, Organiser, a, "")
	}
	return nil
}

// do makes a checked move of seat (a player's or the organiser's) in
// place.
func do[S Mover](s S, seat Seat, a Action, ev []Event) []Event {
	if seat == Organiser {
		return s.EndNow(ev)
	}
	return s.Do(seat, a, ev)
}
