// Package race is «Гонка» (race), a tiny third game kept for the tests
// only: it proves that a game plugs into the engine's shared scaffolding
// (engine.Define, engine.Adapter, engine.Table, the orders, the scores)
// without the shared code assuming laps, four seats or a board of
// property. Nothing in production imports it.
//
// The rules are ours (DECISIONS.md beside this file), cited by their ids:
//
//   - two players, exactly; both start on cell 0 with no coins; who
//     moves first is drawn by the game's generator (P-1).
//   - the option track is the number of cells to the finish, 10 to
//     40 (20 when absent); a game by mail gets 20 too.
//   - on its turn a player makes one decision: roll (move one to six
//     cells by the seeded generator kept in the state) or rest (no move,
//     +1 coin from the bank). A player may rest only while it holds fewer
//     than MaxCoins coins, so every game ends.
//   - a roll that reaches or passes the finish stops on it and ends
//     the game at once (game_over, why: the finish); otherwise the turn
//     passes to the other player.
//   - a player may resign instead (P-4); the other is then the last
//     one left and the game ends (game_over, why: the last one left).
//   - the score is cells covered + coins, and 100 more for the
//     player who reached the finish; a player who resigned ranks last
//     (engine.Rank).
//   - a missed deadline rolls (P-4); the standing order roll rolls
//     at once.
//   - every seat sees the whole position: cells, coins, the last
//     roll; only the generator (what the next roll will be) is hidden
//     (P-3). No action is secret.
package race

import (
	"fmt"

	"github.com/pbmgames/pbm/engine"
)

// Name is the game's name in the service.
const Name = "race"

// FormatVersion is the version of the serialised state.
const FormatVersion = 1

// Seat limits: two players, no more, no fewer.
const (
	MinSeats = 2
	MaxSeats = 2
)

// seating is the game's seat limits and title for engine.Table.
var seating = engine.Seating{Title: "«Гонка»", Min: MinSeats, Max: MaxSeats}

// Track bounds.
const (
	MinTrack     = 10
	MaxTrack     = 40
	DefaultTrack = 20
)

// Options are chosen by the organiser.
type Options struct {
	// Track is the number of cells from the start to the finish.
	Track int `json:"track"`
}

// DefaultOptions is what a game uses when the organiser says nothing.
func DefaultOptions() Options { return Options{Track: DefaultTrack} }

// Validate refuses options the engine cannot play.
func (o Options) Validate() error {
	if o.Track < MinTrack || o.Track > MaxTrack {
		return fmt.Errorf("%w: track must be between %d and %d, got %d", engine.ErrBadOptions, MinTrack, MaxTrack, o.Track)
	}
	return nil
}

// Phase is what the game waits for.
type Phase uint8

const (
	PhMove Phase = iota // the turn's seat rolls or rests
	PhOver              // the game has ended (R-4, R-5, engine.End)
)

var phaseNames = [...]string{"move", "over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("phase(%d)", p)
}

// MarshalText writes the phase by name.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a phase name.
func (p *Phase) UnmarshalText(b []byte) error { return engine.ParseName(p, "phase", phaseNames[:], b) }

// Player is one seat: all of it is public.
type Player struct {
	Cell     int   `json:"cell"`               // 0 the start … Opts.Track the finish
	Coins    int64 `json:"coins"`              // from resting
	Finished bool  `json:"finished,omitempty"` // reached the finish
	Resigned bool  `json:"resigned,omitempty"` // left the game
}

// State is a whole game. Treat it as a value: Apply returns a new one.
type State struct {
	engine.Table[Options]
	Phase   Phase    `json:"phase"`
	Roll    int      `json:"roll,omitempty"` // the last roll, 0 before the first
	Players []Player `json:"players"`
	Bank    int64    `json:"bank"` // coins the bank has paid out, net
	Actions int      `json:"actions"`
	// Rules are the game's rules version's numbers: not stored, the
	// version is (engine/games sets them on making and loading a game).
	Rules Rules `json:"-"`
}

// New starts a game: both on the start, the first player drawn.
func New(opts Options, seats int, seed [32]byte) (*State, error) {
	table, err := engine.OpenTable(FormatVersion, seating, opts, seats, seed)
	if err != nil {
		return nil, err
	}
	s := &State{Table: table, Rules: Rulebook[CurrentRules], Players: make([]Player, seats)}
	s.Turn = s.RNG.IntN(seats)
	return s, nil
}

// Clone returns a deep copy.
func (s *State) Clone() *State {
	c := *s
	c.Players = append([]Player(nil), s.Players...)
	return &c
}

// Over tells whether the game has ended.
func (s *State) Over() bool { return s.Phase == PhOver }

// Seats is the number of players.
func (s *State) Seats() int { return len(s.Players) }

// Owes tells whether seat owes a decision now (engine.Machine): the
// turn's seat, while the game goes on.
func (s *State) Owes(seat engine.Seat) bool { return !s.Over() && seat == s.Turn }

// Owing lists the seats that owe a decision now (one at a time here).
func (s *State) Owing() []engine.Seat {
	if s.Over() {
		return nil
	}
	return []engine.Seat{s.Turn}
}

// other is the seat that is not seat.
func other(seat engine.Seat) engine.Seat { return 1 - seat }
