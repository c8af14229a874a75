// Package games is the registry of the engine's games: it makes, loads and
// replays any registered game by name, so the service needs no
// game-specific code. It names no game itself: each game's package builds
// its own entry (engine.Def) and the program registers it once
// (functions/internal/catalog).
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

var registry = map[string]engine.Def{}

// Register adds a game. Registering a kind twice is a programming error,
// met at start-up.
func Register(d engine.Def) {
	if d.Info.Kind == "" {
		panic("games: register a game without a kind")
	}
	if _, dup := registry[d.Info.Kind]; dup {
		panic("games: " + d.Info.Kind + " registered twice")
	}
	registry[d.Info.Kind] = d
}

// ErrUnknownGame is returned for a kind no game has.
var ErrUnknownGame = fmt.Errorf("%w: unknown game", engine.ErrBadOptions)

// ErrUnknownRules is returned for a rules version this engine does not
// play.
var ErrUnknownRules = engine.ErrUnknownRules

// List describes every game, in name order.
func List() []Info {
	var out []Info
	for _, d := range registry {
		out = append(out, d.Info)
	}
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(a.Kind, b.Kind) })
	return out
}

// Lookup describes one game.
func Lookup(kind string) (Info, bool) {
	d, ok := registry[kind]
	return d.Info, ok
}

// CurrentRules is the rules version new games of kind are made with
// (0 for an unknown kind).
func CurrentRules(kind string) int {
	d, ok := registry[kind]
	if !ok {
		return 0
	}
	return d.CurrentRules()
}

// New starts a game of kind under rules version rules from its options
// (JSON; missing fields take the defaults, unknown ones are refused), the
// number of seats and a seed.
func New(kind string, rules int, opts json.RawMessage, seats int, seed [32]byte) (engine.Game, error) {
	d, ok := registry[kind]
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
func Complete(kind string, opts json.RawMessage) (json.RawMessage, error) {
	d, ok := registry[kind]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownGame, kind)
	}
	return d.Complete(opts)
}

// Load restores a game of rules version rules from its stored state.
func Load(kind string, rules int, state []byte) (engine.Game, error) {
	d, ok := registry[kind]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownGame, kind)
	}
	return d.Load(rules, state)
}

// Secret tells whether an action of a game of kind is secret from the
// seats other than its own (a sealed bid): they may see its type only
// (P-3). Nothing of an unknown kind is.
func Secret(kind string, a engine.Action) bool {
	d, ok := registry[kind]
	return ok && d.Secret != nil && d.Secret(a)
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
