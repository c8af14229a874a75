package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// Info describes a game for the service: its name, seat limits, its
// length and the options a game by mail gets unless its organiser chooses
// others. The service's shared parts (the create page, the lengths'
// estimates, league rounds) ask it rather than assume a game's shape.
type Info struct {
	Kind     string
	RU, EN   string
	MinSeats int
	MaxSeats int
	// Length is the option that sets how long a game runs; the zero
	// Length for a game that has none.
	Length Length
	// Deals tells whether players make one another offers (engine.Deal):
	// the pages and mails then link to the seat's deals.
	Deals bool
	// Defaults are the options of a game by mail, as JSON: written out on
	// first use, not when the games are registered (at a function's
	// init, where encoding/json's first use costs 0.07 ms of a cold
	// start).
	Defaults func() json.RawMessage
}

// Length is a game's length option: its name among the options ("laps"),
// and the values the create page offers with the calendar simulator's
// estimates of their days, shortest first (what the organiser may choose
// is the options' own check, Options.Validate).
type Length struct {
	Option  string
	Offered []int
}

// Laps is the length of a game counted in laps (its option "laps"),
// offered at the lengths given.
func Laps(offered ...int) Length { return Length{Option: "laps", Offered: offered} }

// Has tells whether the game has a length option.
func (l Length) Has() bool { return l.Option != "" }

// Of is the length options opts set, and whether they set one.
func (l Length) Of(opts json.RawMessage) (int, bool) {
	if !l.Has() || len(opts) == 0 {
		return 0, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(opts, &m) != nil {
		return 0, false
	}
	var n int
	if raw, ok := m[l.Option]; !ok || json.Unmarshal(raw, &n) != nil {
		return 0, false
	}
	return n, true
}

// Options are options that set the length to n, the rest left to the
// defaults.
func (l Length) Options(n int) json.RawMessage {
	return mustJSON(map[string]int{l.Option: n})
}

// Def is one game's entry in the registry (engine/games): how to make,
// load and replay it under a rules version, and how to write a new game's
// options out whole. Each game's package builds its own (its Def
// function); the service registers them in one place.
type Def struct {
	Info Info
	// New starts a game under rules version rules from its options (JSON;
	// missing fields take the engine's defaults, unknown ones are refused).
	New func(rules int, opts json.RawMessage, seats int, seed [32]byte) (Game, error)
	// Load restores a game of rules version rules from its stored state.
	Load func(rules int, state []byte) (Game, error)
	// CurrentRules is the version new games are made with.
	CurrentRules func() int
	// Complete writes options out whole over Info.Defaults.
	Complete func(opts json.RawMessage) (json.RawMessage, error)
	// Secret tells whether an action is secret from the seats other than
	// its own (a sealed bid): they may see its type only (P-3). What the
	// events of an action show is their own (Event.Private).
	Secret func(a Action) bool
}

// ErrUnknownRules is returned for a rules version this engine does not
// play.
var ErrUnknownRules = errors.New("rules version not in this engine")

// Options are a game's organiser's choices: they refuse what the engine
// cannot play.
type Options interface{ Validate() error }

// Ruled is a game's state that takes the numbers R of a rules version.
type Ruled[S any, V any, R any] interface {
	State[S, V]
	SetRules(r R)
}

// Define builds a game's registry entry from its typed parts: its info
// (Defaults is filled from mail), the engine's own options (what stored
// options leave out), the options a game by mail gets, its rulebook and
// current version, how to make and read its state, and which of its
// actions are secret (Def.Secret). rulebook and
// current point at the game's package variables and are read at each
// call, so a new rules version (or a test) swapping them is seen at once.
func Define[O Options, S Ruled[S, V, R], V any, R any](info Info, defaults func() O, mail O,
	rulebook *map[int]R, current *int,
	newState func(opts O, seats int, seed [32]byte) (S, error), unmarshal func(state []byte) (S, error),
	secret func(a Action) bool,
) Def {
	info.Defaults = sync.OnceValue(func() json.RawMessage { return mustJSON(mail) })
	rules := func(version int) (R, error) {
		r, ok := (*rulebook)[version]
		if !ok {
			return r, fmt.Errorf("%w: %d", ErrUnknownRules, version)
		}
		return r, nil
	}
	start := func(s S, r R) Game {
		s.SetRules(r)
		return Adapter[S, V]{S: s}
	}
	return Def{
		Info: info,
		New: func(version int, raw json.RawMessage, seats int, seed [32]byte) (Game, error) {
			r, err := rules(version)
			if err != nil {
				return nil, err
			}
			opts, err := DecodeOptions(raw, defaults())
			if err != nil {
				return nil, err
			}
			s, err := newState(opts, seats, seed)
			if err != nil {
				return nil, err
			}
			return start(s, r), nil
		},
		Load: func(version int, state []byte) (Game, error) {
			r, err := rules(version)
			if err != nil {
				return nil, err
			}
			s, err := unmarshal(state)
			if err != nil {
				return nil, err
			}
			return start(s, r), nil
		},
		CurrentRules: func() int { return *current },
		Complete:     func(raw json.RawMessage) (json.RawMessage, error) { return CompleteOptions(raw, mail) },
		Secret:       secret,
	}
}

// DecodeOptions reads options over their defaults, refusing unknown fields.
func DecodeOptions[O Options](raw json.RawMessage, def O) (O, error) {
	opts := def
	if len(raw) > 0 && string(raw) != "null" {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&opts); err != nil {
			return def, fmt.Errorf("%w: %v", ErrBadOptions, err)
		}
	}
	if err := opts.Validate(); err != nil {
		return def, err
	}
	return opts, nil
}

// CompleteOptions is DecodeOptions written back as JSON.
func CompleteOptions[O Options](raw json.RawMessage, def O) (json.RawMessage, error) {
	opts, err := DecodeOptions(raw, def)
	if err != nil {
		return nil, err
	}
	return json.Marshal(opts)
}

// mustJSON marshals a game's own defaults, which always marshal: a failure
// is a bug in the game, met by its tests.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
