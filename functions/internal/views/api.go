package views

import (
	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// GameView is the JSON of a game as one reader may see it.
type GameView struct {
	ID      string       `json:"id"`
	Kind    string       `json:"kind"`
	Status  string       `json:"status"`
	Version int64        `json:"version"`
	Moves   int          `json:"moves"`
	As      string       `json:"as"`             // seat, organiser or spectator
	Seat    *int         `json:"seat,omitempty"` // the reader's invitation index
	Players []PlayerView `json:"players"`
	Owing   []int        `json:"owing,omitempty"` // invitation indexes that owe a decision
	Game    any          `json:"game,omitempty"`  // the engine's view for this reader (P-3)
	// SeedSHA256 commits to the game's seed from its creation on; Seed
	// (hex) is revealed once the game is over, and never before.
	SeedSHA256 string `json:"seed_sha256"`
	Seed       string `json:"seed,omitempty"`
	// Rules is the rules version the game is played under.
	Rules int `json:"rules"`
	// Paused: the organiser paused the game. Controls is what the
	// organiser did, oldest first.
	Paused   bool          `json:"paused,omitempty"`
	Controls []ControlView `json:"controls,omitempty"`
}

// ControlView is one of the organiser's controls (service.Control).
type ControlView struct {
	What  string `json:"what"`
	At    int64  `json:"at"`
	Seat  int    `json:"seat"`
	By    string `json:"by,omitempty"`
	Hours int    `json:"hours,omitempty"`
	To    int    `json:"to,omitempty"`
}

// PlayerView is one invited player, as the reader may see them.
type PlayerView struct {
	Index    int    `json:"index"`
	Name     string `json:"name"`
	Email    string `json:"email,omitempty"` // the organiser and the player only
	Accepted bool   `json:"accepted"`
	Seat     int    `json:"seat"` // in the engine; −1 if not playing
	// Bot: a bot plays the seat. Away: the player is away, until
	// AwayUntil (0: until they are back). Out: "replaced" when the seat
	// went to a substitute.
	Bot       bool   `json:"bot,omitempty"`
	Away      bool   `json:"away,omitempty"`
	AwayUntil int64  `json:"away_until,omitempty"`
	Out       string `json:"out,omitempty"`
}

// LogEntry is one command of the log as a reader may see it.
type LogEntry struct {
	N      int            `json:"n"`
	Seat   int            `json:"seat"`
	Action engine.Action  `json:"action"`
	At     int64          `json:"at"`
	Events []engine.Event `json:"events"`
	// By says, to the seat that made the command only, that its standing
	// orders ("order") or a missed deadline ("deadline") played it.
	By string `json:"by,omitempty"`
}

// Game is the view of rec at version ver for reader rd; g is its engine
// game, nil before it starts.
func Game(rec *service.Record, ver int64, g engine.Game, rd Reader) GameView {
	v := GameView{ID: rec.ID, Kind: rec.Kind, Status: rec.Status, Version: ver, Moves: rec.Moves,
		SeedSHA256: rec.SeedCommitment(), Seed: rec.RevealedSeed(), Rules: rec.Rules, As: rd.Role}
	if rd.Role == "seat" {
		inv := rd.Invite
		v.Seat = &inv
	}
	for i, s := range rec.Seats {
		p := PlayerView{Index: i, Name: s.Name, Accepted: s.Accepted, Seat: s.Engine}
		if v.As == "organiser" || i == rd.Invite {
			p.Email = s.Email
		}
		v.Players = append(v.Players, p)
	}
	if g == nil {
		return v
	}
	seat := rd.Seat(rec)
	v.Game = g.View(seat)
	for _, s := range g.Owing() {
		for i, st := range rec.Seats {
			if st.Engine == s && st.Accepted {
				v.Owing = append(v.Owing, i)
			}
		}
	}
	return v
}

// LogEntries is the whole log of rec as reader rd may see it.
func LogEntries(gs *present.Games, rec *service.Record, entries []service.Entry, rd Reader) []LogEntry {
	seat := rd.Seat(rec)
	out := make([]LogEntry, 0, len(entries))
	for _, e := range entries {
		le := LogEntry{N: e.N, Seat: e.Seat, Action: e.Action, At: e.At, Events: []engine.Event{}}
		for _, ev := range e.Events {
			if ev.VisibleTo(seat) {
				le.Events = append(le.Events, ev)
			}
		}
		if e.Seat == seat && e.Delegated() {
			le.By = e.By
		}
		if Hidden(gs, rec.Kind, e, seat) {
			le.Action = engine.Action{Type: e.Action.Type} // a sealed bid's amount stays secret (P-3)
		}
		out = append(out, le)
	}
	return out
}

// Result is the standings of a started game: the scores so far, and the
// seed once the game is over.
func Result(rec *service.Record, g engine.Game) map[string]any {
	out := map[string]any{"id": rec.ID, "over": g.Over(), "moves": rec.Moves, "scores": g.Score(), "seed_sha256": rec.SeedCommitment()}
	if seed := rec.RevealedSeed(); seed != "" {
		out["seed"] = seed
	}
	return out
}
