// Package games is a registry of the engine's games, as a value: it
// makes, loads and replays any game it was given by name, so the service
// needs no game-specific code. It names no game itself: each game's
// package builds its own entry (engine.Def) and the program lists the
// games it serves once, in its wiring (functions/internal/catalog), and
// hands the registry to what needs it.
package games

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/pbmgames/pbm/engine"
)

// Info describes a game for the service: its name, seat limits and default
// options.
type Info = engine.Info

// Registry is a set of games by kind, in the order they were given: the
// first is the service's first game (the create form offers it first).
// Its zero value has no games; it is not changed once made.
type Registry struct {
	defs  map[string]engine.Def
	kinds []string
}

// New makes a registry of defs, in their order. A game without a kind, or
// a kind given twice, is a programming error, met at start-up.
func New(defs ...engine.Def) *Registry {
	r := &Registry{defs: make(map[string]engine.Def, len(defs))}
	for _, d := range defs {
		if d.Info.Kind == "" {
			panic("games: a game without a kind")
		}
		if _, dup := r.defs[d.Info.Kind]; dup {
			panic("games: " + d.Info.Kind + " given twice")
		}
		r.defs[d.Info.Kind] = d
		r.kinds = append(r.kinds, d.Info.Kind)
	}
	return r
}

// ErrUnknownGame is returned for a kind no game has.
var ErrUnknownGame = fmt.Errorf("%w: unknown game", engine.ErrBadOptions)

// ErrUnknownRules is returned for a rules version this engine does not
// play.
var ErrUnknownRules = engine.ErrUnknownRules

// Kinds are the registry's kinds, in the order they were given.
func (r *Registry) Kinds() []string { return slices.Clone(r.kinds) }

// List describes every game, in name order.
func (r *Registry) List() []Info {
	out := make([]Info, 0, len(r.kinds))
	for _, k := range r.kinds {
		out = append(out, r.defs[k].Info)
	}
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(a.Kind, b.Kind) })
	return out
}

// Lookup describes one game.
func (r *Registry) Lookup(kind string) (Info, bool) {
	d, ok := r.defs[kind]
	return d.Info, ok
}

// Def is one game's entry.
func (r *Registry) Def(kind string) (engine.Def, bool) {
	d, ok := r.defs[kind]
	return d, ok
}

// CurrentRules is the rules version new games of kind are made with
// (0 for an unknown kind).
func (r *Registry) CurrentRules(kind string) int {
	d, ok := r.defs[kind]
	if !ok {
		return 0
	}
	return d.CurrentRules()
}

// New starts a game of kind under rules version rules from its options
// (JSON; missing fields take the defaults, unknown ones are refused), the
// number of seats and a seed.
func (r *Registry) New(kind string, rules int, opts json.RawMessage, seats int, seed [32]byte) (engine.Game, error) {
	d, ok := r.defs[kind]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownGame, kind)
	}
	return d.New(rules, opts, seats, seed)
}

// Complete writes a new game's options out whole: what the organiser gave,
// the rest from Info.Defaults. A game keeps them as they were written, so
// a later change of the defaults never changes a game already made (New
// fills what stored options leave out from the engine's own defaults, as
// games made before Complete existed were made).
func (r *Registry) Complete(kind string, opts json.RawMessage) (json.RawMessage, error) {
	d, ok := r.defs[kind]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownGame, kind)
	}
	return d.Complete(opts)
}

// Load restores a game of rules version rules from its stored state.
func (r *Registry) Load(kind string, rules int, state []byte) (engine.Game, error) {
	d, ok := r.defs[kind]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownGame, kind)
	}
	return d.Load(rules, state)
}

// Secret tells whether an action of a game of kind is secret from the
// seats other than its own (a sealed bid): they may see its type only
// (P-3). Nothing of an unknown kind is.
func (r *Registry) Secret(kind string, a engine.Action) bool {
	d, ok := r.defs[kind]
	return ok && d.Secret != nil && d.Secret(a)
}

// Replay plays a log from the start (P-1) under rules version rules and
// returns the game it leads to.
func (r *Registry) Replay(kind string, rules int, opts json.RawMessage, seats int, seed [32]byte, log []engine.Command) (engine.Game, error) {
	g, err := r.New(kind, rules, opts, seats, seed)
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
