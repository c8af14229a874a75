package engine

import "fmt"

// Table is the head of every game's state: the version of its stored form,
// the organiser's options, the generator and whose turn it is. Each game's
// State embeds it, so these are made, stored and checked alike.
type Table[O Options] struct {
	Format int  `json:"v"`
	Opts   O    `json:"opts"`
	RNG    RNG  `json:"rng"`
	Turn   Seat `json:"turn"`
}

// Seating is a game's seat limits, and its name as a player reads it in a
// refusal.
type Seating struct {
	Title    string
	Min, Max int
}

// OpenTable checks the options and the number of seats, and seeds the
// generator (P-1), for a new game whose stored form is version format.
func OpenTable[O Options](format int, at Seating, opts O, seats int, seed [32]byte) (Table[O], error) {
	if err := opts.Validate(); err != nil {
		return Table[O]{}, err
	}
	if seats < at.Min || seats > at.Max {
		return Table[O]{}, fmt.Errorf("%w: %s takes %d to %d players, got %d", ErrBadOptions, at.Title, at.Min, at.Max, seats)
	}
	return Table[O]{Format: format, Opts: opts, RNG: NewRNG(seed)}, nil
}

// TurnSeat is the seat whose turn it is (Game's Turn).
func (t *Table[O]) TurnSeat() Seat { return t.Turn }

// Stored checks the head of a state just read: the version of its form,
// its options, and a turn among its seats.
func (t *Table[O]) Stored(format int, at Seating, seats int) error {
	if t.Format != format {
		return fmt.Errorf("format %d, want %d", t.Format, format)
	}
	if err := t.Opts.Validate(); err != nil {
		return err
	}
	if seats < at.Min || seats > at.Max || t.Turn < 0 || t.Turn >= seats {
		return fmt.Errorf("%d seats, turn %d", seats, t.Turn)
	}
	return nil
}
