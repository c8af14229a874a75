// Package games is the registry of the engine's games: it makes, loads and
// replays any of them by name, so the service needs no game-specific code.
package games

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/engine/western"
)

// Info describes a game for the service: its name, seat limits and default
// options.
type Info struct {
	Kind     string
	RU, EN   string
	MinSeats int
	MaxSeats int
	Defaults json.RawMessage
}

// The lengths a game by mail gets unless its organiser chooses another:
// under the calendar model, with standing orders, a 4-seat game's median
// stays within 14 days and its 90th percentile within 21 (README,
// "Calendar"). The engines' own default (20 laps) is the full length.
const (
	WesternMailLaps     = 5
	BusinessmanMailLaps = 10
)

// def is one game's entry: how to make, load and replay it under a rules
// version, and how to write a new game's options out whole.
type def struct {
	info   Info
	create func(rules int, opts json.RawMessage, seats int, seed [32]byte) (engine.Game, error)
	load   func(rules int, state []byte) (engine.Game, error)
	// current is the version new games are made with.
	current  func() int
	complete func(opts json.RawMessage) (json.RawMessage, error)
}

func westernMail() western.Options {
	o := western.DefaultOptions()
	o.Laps = WesternMailLaps
	return o
}

func businessmanMail() businessman.Options {
	o := businessman.DefaultOptions()
	o.Laps = BusinessmanMailLaps
	return o
}

var registry = map[string]def{
	western.Name: {
		info: Info{Kind: western.Name, RU: "Вестерн", EN: "Western",
			MinSeats: western.MinSeats, MaxSeats: western.MaxSeats, Defaults: mustJSON(westernMail())},
		create: func(rules int, raw json.RawMessage, seats int, seed [32]byte) (engine.Game, error) {
			r, ok := western.Rulebook[rules]
			if !ok {
				return nil, fmt.Errorf("%w: %d", ErrUnknownRules, rules)
			}
			opts, err := decodeOptions(raw, western.DefaultOptions())
			if err != nil {
				return nil, err
			}
			s, err := western.New(opts, seats, seed)
			if err != nil {
				return nil, err
			}
			s.Rules = r
			return western.Game{S: s}, nil
		},
		load: func(rules int, state []byte) (engine.Game, error) {
			r, ok := western.Rulebook[rules]
			if !ok {
				return nil, fmt.Errorf("%w: %d", ErrUnknownRules, rules)
			}
			s, err := western.Unmarshal(state)
			if err != nil {
				return nil, err
			}
			s.Rules = r
			return western.Game{S: s}, nil
		},
		current:  func() int { return western.CurrentRules },
		complete: func(raw json.RawMessage) (json.RawMessage, error) { return completeOptions(raw, westernMail()) },
	},
	businessman.Name: {
		info: Info{Kind: businessman.Name, RU: "Бизнесмен", EN: "Businessman",
			MinSeats: businessman.MinSeats, MaxSeats: businessman.MaxSeats, Defaults: mustJSON(businessmanMail())},
		create: func(rules int, raw json.RawMessage, seats int, seed [32]byte) (engine.Game, error) {
			r, ok := businessman.Rulebook[rules]
			if !ok {
				return nil, fmt.Errorf("%w: %d", ErrUnknownRules, rules)
			}
			opts, err := decodeOptions(raw, businessman.DefaultOptions())
			if err != nil {
				return nil, err
			}
			s, err := businessman.New(opts, seats, seed)
			if err != nil {
				return nil, err
			}
			s.Rules = r
			return businessman.Game{S: s}, nil
		},
		load: func(rules int, state []byte) (engine.Game, error) {
			r, ok := businessman.Rulebook[rules]
			if !ok {
				return nil, fmt.Errorf("%w: %d", ErrUnknownRules, rules)
			}
			s, err := businessman.Unmarshal(state)
			if err != nil {
				return nil, err
			}
			s.Rules = r
			return businessman.Game{S: s}, nil
		},
		current:  func() int { return businessman.CurrentRules },
		complete: func(raw json.RawMessage) (json.RawMessage, error) { return completeOptions(raw, businessmanMail()) },
	},
}

// ErrUnknownGame is returned for a kind no game has.
var ErrUnknownGame = fmt.Errorf("%w: unknown game", engine.ErrBadOptions)

// ErrUnknownRules is returned for a rules version this engine does not
// play.
var ErrUnknownRules = errors.New("rules version not in this engine")

// List describes every game, in name order.
func List() []Info {
	var out []Info
	for _, d := range registry {
		out = append(out, d.info)
	}
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(a.Kind, b.Kind) })
	return out
}

// Lookup describes one game.
func Lookup(kind string) (Info, bool) {
	d, ok := registry[kind]
	return d.info, ok
}

// CurrentRules is the rules version new games of kind are made with
// (0 for an unknown kind).
func CurrentRules(kind string) int {
	d, ok := registry[kind]
	if !ok {
		return 0
	}
	return d.current()
}

// New starts a game of kind under rules version rules from its options
// (JSON; missing fields take the defaults, unknown ones are refused), the
// number of seats and a seed.
func New(kind string, rules int, opts json.RawMessage, seats int, seed [32]byte) (engine.Game, error) {
	d, ok := registry[kind]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownGame, kind)
	}
	return d.create(rules, opts, seats, seed)
}

// Complete writes a new game's options out whole: what the organiser gave,
// the rest from Info.Defaults. A game keeps them as they were written, so
// a later change of the defaults never changes a game already made (New
// fills what stored options leave out from the engine's own defaults, as
// games made before Complete existed were made).
func Complete(kind string, opts json.RawMessage) (json.RawMessage, error) {
	d, ok := registry[kind]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownGame, kind)
	}
	return d.complete(opts)
}

// Load restores a game of rules version rules from its stored state.
func Load(kind string, rules int, state []byte) (engine.Game, error) {
	d, ok := registry[kind]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownGame, kind)
	}
	return d.load(rules, state)
}

// Replay plays a log from the start (P-1) under rules version rules and
// returns the game it leads to.
func Replay(kind string, rules int, opts json.RawMessage, seats int, seed [32]byte, log []engine.Command) (engine.Game, error) {
	g, err := New(kind, rules, opts, seats, seed)
	if err != nil {
		return nil, err
	}
	for i, c := range log {
		g, _, err = g.Apply(c.Seat, c.Action)
		if err != nil {
			return nil, fmt.Errorf("replay command %d: %w", i, err)
		}
	}
	return g, nil
}

// decodeOptions reads options over their defaults, refusing unknown fields.
func decodeOptions[T interface{ Validate() error }](raw json.RawMessage, def T) (T, error) {
	opts := def
	if len(raw) > 0 && string(raw) != "null" {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&opts); err != nil {
			return def, fmt.Errorf("%w: %v", engine.ErrBadOptions, err)
		}
	}
	if err := opts.Validate(); err != nil {
		return def, err
	}
	return opts, nil
}

// completeOptions is decodeOptions written back as JSON.
func completeOptions[T interface{ Validate() error }](raw json.RawMessage, def T) (json.RawMessage, error) {
	opts, err := decodeOptions(raw, def)
	if err != nil {
		return nil, err
	}
	return json.Marshal(opts)
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
