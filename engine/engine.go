// Package engine is the shared core of the games: actions, events, typed
// errors, the seeded random generator and the interface every game
// implements. It imports only the standard library and does no I/O.
package engine

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Seat is a player's place at the table, 0-based, in turn order.
type Seat = int

// Spectator is the seat value for a view that belongs to no player.
const Spectator Seat = -1

// Action is one command of one seat. Which fields matter depends on Type;
// the others stay zero. Actions are what players send, what the log stores
// and what Legal lists.
type Action struct {
	Type   string `json:"type"`
	Cell   int    `json:"cell,omitempty"`
	Target int    `json:"target,omitempty"` // another seat, for offers
	Good   string `json:"good,omitempty"`
	Amount int64  `json:"amount,omitempty"`
	Deal   int    `json:"deal,omitempty"` // the deal an answer answers (AcceptDeal, DeclineDeal)
}

func (a Action) String() string {
	b, _ := json.Marshal(a)
	return string(b)
}

// Resign is the action type, common to every game, by which a seat that
// owes a decision leaves the game instead. The service plays it for a
// player dropped after repeated missed deadlines (P-4).
const Resign = "resign"

// Choice is one entry of the legal-action list. For actions that carry an
// amount the player picks it: any multiple of Step in [Min, Max]. For the
// others Min = Max = Step = 0 and the Action is taken as it is.
type Choice struct {
	Action
	Min  int64 `json:"min,omitempty"`
	Max  int64 `json:"max,omitempty"`
	Step int64 `json:"step,omitempty"`
	// Default marks the choice played when this seat's deadline passes
	// (P-4). A ranged default carries the amount it plays in Amount.
	Default bool `json:"default,omitempty"`
}

// Ranged tells whether the player picks the amount.
func (c Choice) Ranged() bool { return c.Step > 0 }

// Admits reports whether a is an instance of this choice.
func (c Choice) Admits(a Action) bool {
	if a.Type != c.Type || a.Cell != c.Cell || a.Target != c.Target || a.Good != c.Good || a.Deal != c.Deal {
		return false
	}
	if !c.Ranged() {
		return a.Amount == c.Amount
	}
	return a.Amount >= c.Min && a.Amount <= c.Max && (a.Amount-c.Min)%c.Step == 0
}

// Find returns the index of the first choice that admits a, or -1.
func Find(choices []Choice, a Action) int {
	for i := range choices {
		if choices[i].Admits(a) {
			return i
		}
	}
	return -1
}

// Event is something an action caused, for logs, mails and pages. Seat is
// who it concerns (-1: nobody in particular). Private events are seen only
// by Seat (P-3).
type Event struct {
	Type    string `json:"type"`
	Seat    Seat   `json:"seat"`
	Cell    int    `json:"cell,omitempty"`
	Other   int    `json:"other,omitempty"` // a second seat or cell, per Type
	Good    string `json:"good,omitempty"`
	Amount  int64  `json:"amount,omitempty"`
	Private bool   `json:"private,omitempty"`
	// Deal is the deal an event of deals is about (EvDeal…).
	Deal *Deal `json:"deal,omitempty"`
}

// Event types every game shares: the pages and mails read them by these
// names, whatever the game.
const (
	EvTurn     = "turn"      // Seat: whose turn it is now
	EvResign   = "resign"    // Seat left the game (Resign)
	EvGameOver = "game_over" // the game's last event; Other: why (OverLaps, OverLastOne, OverEnded, or the game's own)
)

// Why a game ended, in the Other of its game-over event: a player
// completed the agreed laps, or one player is left in the game.
const (
	OverLaps    = 1
	OverLastOne = 2
)

// VisibleTo reports whether seat may see the event.
func (e Event) VisibleTo(seat Seat) bool { return !e.Private || e.Seat == seat }

// Command is one entry of a game's log: who did what.
type Command struct {
	Seat   Seat   `json:"seat"`
	Action Action `json:"action"`
}

// Kind of failure when an action is refused. Callers switch on these with
// errors.Is; the message is readable by a player.
var (
	ErrNotYourTurn   = errors.New("it is not your turn")
	ErrIllegalAction = errors.New("that action is not allowed now")
	ErrGameOver      = errors.New("the game is over")
	ErrBadOptions    = errors.New("invalid game options")
)

// ActionError says why an action was refused; it wraps one of the Err kinds.
type ActionError struct {
	Kind   error
	Seat   Seat
	Action Action
	Reason string
}

func (e *ActionError) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("seat %d %s: %v", e.Seat, e.Action, e.Kind)
	}
	return fmt.Sprintf("seat %d %s: %v: %s", e.Seat, e.Action, e.Kind, e.Reason)
}

func (e *ActionError) Unwrap() error { return e.Kind }

// Refuse builds an ActionError.
func Refuse(kind error, seat Seat, a Action, reason string) error {
	return &ActionError{Kind: kind, Seat: seat, Action: a, Reason: reason}
}

// Score is one seat's result: net worth broken down, and its place (1 = best).
type Score struct {
	Seat     Seat             `json:"seat"`
	Place    int              `json:"place"`
	NetWorth int64            `json:"net_worth"`
	Bankrupt bool             `json:"bankrupt"`
	Parts    map[string]int64 `json:"parts"`
}

// Game is what the service asks of any game. Implementations are values
// that Apply never mutates.
type Game interface {
	// Kind names the game: its registry name.
	Kind() string
	// Seats is the number of players.
	Seats() int
	// Over tells whether the game has ended.
	Over() bool
	// Turn is the seat whose turn it is; decisions owed by other seats
	// are out of turn (P-2).
	Turn() Seat
	// Owing lists the seats that owe a decision now, in seat order.
	Owing() []Seat
	// Legal lists the seat's legal actions in a stable order; empty when it
	// owes nothing.
	Legal(seat Seat) []Choice
	// Apply checks the action against Legal and returns the new game and
	// the events it caused. The receiver is not changed.
	Apply(seat Seat, a Action) (Game, []Event, error)
	// Default is the action played for seat when its deadline passes (P-4).
	Default(seat Seat) (Action, bool)
	// Bot picks an action for seat; it is always legal.
	Bot(seat Seat) (Action, bool)
	// View is what seat (or Spectator) may see, as a JSON-ready value.
	View(seat Seat) any
	// Score ranks the seats by net worth.
	Score() []Score
	// MarshalJSON serialises the whole state, secrets included: for storage only.
	MarshalJSON() ([]byte, error)
}

// Rank sets the places of scores: the seats still playing by net worth,
// highest first, then the bankrupt; ties keep seat order. Both games end
// this way (W-40, B-0).
func Rank(scores []Score) {
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := scores[a], scores[b]
		if x.Bankrupt != y.Bankrupt {
			if x.Bankrupt {
				return 1
			}
			return -1
		}
		return cmp.Compare(y.NetWorth, x.NetWorth)
	})
	for place, i := range order {
		scores[i].Place = place + 1
	}
}

// Gain pays seat amt from the bank: into its cash, counted in bank (what
// the bank has paid players, net), with an event of type typ; nothing for
// nothing.
func Gain(cash, bank *int64, seat Seat, amt int64, typ string, cell int, ev []Event) []Event {
	if amt == 0 {
		return ev
	}
	*cash += amt
	*bank += amt
	return append(ev, Event{Type: typ, Seat: seat, Cell: cell, Amount: amt})
}
