package engine

import (
	"encoding/json"
	"fmt"
)

// Mover is what Check and Play ask of a game's state: enough to tell
// whether a move is legal and to make it in place.
type Mover interface {
	// Over tells whether the game has ended.
	Over() bool
	// Seats is the number of players.
	Seats() int
	// Owes tells whether seat owes a decision now, without allocating.
	Owes(seat Seat) bool
	// Allows tells whether a is among the legal actions of seat, which
	// owes a decision, or answers a deal open to it (IsAnswer).
	Allows(seat Seat, a Action) bool
	// Do makes a move Check has passed, in place, appending its events
	// to ev. It checks nothing: the fast path of play-outs that own the
	// state and pick from Legal.
	Do(seat Seat, a Action, ev []Event) []Event
	// Ender ends the game at the organiser's command (End).
	Ender
}

// Machine is what the shared scaffolding asks of a game's state to check and
// make a move, and to make it on a copy (Apply); S is the state's own
// (pointer) type.
type Machine[S any] interface {
	Mover
	// Clone returns a deep copy.
	Clone() S
}

// Check says why seat may not take a now, or nil.
func Check[S Mover](s S, seat Seat, a Action) error {
	if seat == Organiser {
		return checkControl(s.Over(), a)
	}
	if s.Over() {
		return Refuse(ErrGameOver, seat, a, "")
	}
	if IsAnswer(a) && seat >= 0 && seat < s.Seats() {
		// A deal is answered at any time, whoever owes a decision.
		if !s.Allows(seat, a) {
			return Refuse(ErrIllegalAction, seat, a, "")
		}
		return nil
	}
	if seat < 0 || seat >= s.Seats() || !s.Owes(seat) {
		return Refuse(ErrNotYourTurn, seat, a, "")
	}
	if !s.Allows(seat, a) {
		return Refuse(ErrIllegalAction, seat, a, "")
	}
	return nil
}

// Apply checks a against seat's legal actions and returns the new state
// and the events it caused. s is never changed.
func Apply[S Machine[S]](s S, seat Seat, a Action) (S, []Event, error) {
	if err := Check(s, seat, a); err != nil {
		var none S
		return none, nil, err
	}
	n := s.Clone()
	ev := do(n, seat, a, nil)
	return n, ev, nil
}

// Play is Apply in place, for play-outs and replays that own the state:
// it still checks legality, appends the events to ev, and leaves s
// unchanged when it refuses.
func Play[S Mover](s S, seat Seat, a Action, ev []Event) ([]Event, error) {
	if err := Check(s, seat, a); err != nil {
		return ev, err
	}
	return do(s, seat, a, ev), nil
}

// Replay plays a log from the start (P-1): the same options, seats, seed
// and commands always give the same state. It stops at the first command
// the engine refuses and says which.
func Replay[O any, S Machine[S]](newState func(opts O, seats int, seed [32]byte) (S, error),
	opts O, seats int, seed [32]byte, log []Command,
) (S, error) {
	var none S
	s, err := newState(opts, seats, seed)
	if err != nil {
		return none, err
	}
	var ev []Event
	for i, c := range log {
		ev, err = Play(s, c.Seat, c.Action, ev[:0])
		if err != nil {
			return none, fmt.Errorf("replay command %d: %w", i, err)
		}
	}
	return s, nil
}

// State is what Adapter asks of a game's state besides its Machine; V is
// the type of its views.
type State[S any, V any] interface {
	Machine[S]
	// Its standing orders: their specs, and what they pick (the
	// Adapter is the engine.Standing, by ByOrders).
	OrderSpecs() []OrderSpec
	Picker
	// Kind names the game.
	Kind() string
	// TurnSeat is the seat whose turn it is.
	TurnSeat() Seat
	Owing() []Seat
	Legal(seat Seat) []Choice
	Default(seat Seat) (Action, bool)
	Bot(seat Seat) (Action, bool)
	View(seat Seat) V
	Score() []Score
	Marshal() ([]byte, error)
	// The game's deals (Dealing): its state embeds Deals.
	OpenDeals() []Deal
	DealAnswer(deal Deal, o Orders, bot bool) (Action, bool)
	Preparable(seat Seat) []Choice
	BotOffer(seat Seat) (Action, bool)
}

// Adapter makes a game's state an engine.Game (and an engine.Standing)
// for the service; every game wraps its state in it alike.
type Adapter[S State[S, V], V any] struct{ S S }

func (g Adapter[S, V]) Kind() string                     { return g.S.Kind() }
func (g Adapter[S, V]) Seats() int                       { return g.S.Seats() }
func (g Adapter[S, V]) Over() bool                       { return g.S.Over() }
func (g Adapter[S, V]) Turn() Seat                       { return g.S.TurnSeat() }
func (g Adapter[S, V]) Owing() []Seat                    { return g.S.Owing() }
func (g Adapter[S, V]) Legal(seat Seat) []Choice         { return g.S.Legal(seat) }
func (g Adapter[S, V]) Default(seat Seat) (Action, bool) { return g.S.Default(seat) }
func (g Adapter[S, V]) Bot(seat Seat) (Action, bool)     { return g.S.Bot(seat) }
func (g Adapter[S, V]) View(seat Seat) any               { return g.S.View(seat) }
func (g Adapter[S, V]) Score() []Score                   { return g.S.Score() }
func (g Adapter[S, V]) MarshalJSON() ([]byte, error)     { return g.S.Marshal() }
func (g Adapter[S, V]) OrderSpecs() []OrderSpec          { return g.S.OrderSpecs() }
func (g Adapter[S, V]) ByOrders(seat Seat, o Orders) (Action, bool) {
	return ByOrders(g.S, seat, o)
}
func (g Adapter[S, V]) Deals() []Deal                     { return g.S.OpenDeals() }
func (g Adapter[S, V]) Preparable(seat Seat) []Choice     { return g.S.Preparable(seat) }
func (g Adapter[S, V]) BotOffer(seat Seat) (Action, bool) { return g.S.BotOffer(seat) }
func (g Adapter[S, V]) DealAnswer(deal Deal, o Orders, bot bool) (Action, bool) {
	return g.S.DealAnswer(deal, o, bot)
}

func (g Adapter[S, V]) Apply(seat Seat, a Action) (Game, []Event, error) {
	n, ev, err := Apply(g.S, seat, a)
	if err != nil {
		return nil, nil, err
	}
	return Adapter[S, V]{n}, ev, nil
}

// MarshalState serialises a whole state, secrets included: for storage
// only, never for a player.
func MarshalState(kind string, s any) ([]byte, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("marshal %s state: %w", kind, err)
	}
	return b, nil
}

// UnmarshalState reads a state written by MarshalState; its Loaded checks
// that it is one the engine can continue and fills what is not stored.
func UnmarshalState[T any, PT interface {
	*T
	Loaded() error
}](kind string, data []byte) (PT, error) {
	s := PT(new(T))
	if err := json.Unmarshal(data, s); err != nil {
		return nil, fmt.Errorf("unmarshal %s state: %w", kind, err)
	}
	if err := s.Loaded(); err != nil {
		return nil, fmt.Errorf("unmarshal %s state: %w", kind, err)
	}
	return s, nil
}

// Worth is what Ranked asks of a game's state.
type Worth interface {
	Seats() int
	// NetWorth is seat's net worth and its parts, the keys of Score.Parts.
	NetWorth(seat Seat) (int64, map[string]int64)
	Bankrupt(seat Seat) bool
}

// Ranked scores every seat by its net worth and ranks them (Rank).
func Ranked(s Worth) []Score {
	out := make([]Score, s.Seats())
	for i := range out {
		nw, parts := s.NetWorth(i)
		out[i] = Score{Seat: i, NetWorth: nw, Bankrupt: s.Bankrupt(i), Parts: parts}
	}
	Rank(out)
	return out
}

// ParseName reads an enum stored by name (a game's phase): *p becomes the
// index of b in names; an unknown name leaves *p as it was.
func ParseName[P ~uint8](p *P, what string, names []string, b []byte) error {
	for i, n := range names {
		if n == string(b) {
			*p = P(i)
			return nil
		}
	}
	return fmt.Errorf("unknown %s %q", what, b)
}
