package conformance_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/conformance"
	"github.com/pbmgames/pbm/engine/western"
)

// The suite is run for every game, the catalog's and the tests' own, by
// functions/internal/conformance (TestEnginesConform), where the tests'
// games are wired in; here it is held to failing a broken game.

// brokenBot is a game whose bot plays an action its own choices never
// offer: the suite must fail it.
type brokenBot struct{ engine.Game }

func (g brokenBot) Bot(seat engine.Seat) (engine.Action, bool) {
	return engine.Action{Type: "no_such_action"}, true
}

func (g brokenBot) Apply(seat engine.Seat, a engine.Action) (engine.Game, []engine.Event, error) {
	n, ev, err := g.Game.Apply(seat, a)
	if err != nil {
		return nil, nil, err
	}
	return brokenBot{n}, ev, nil
}

// TestBrokenGame is run only by TestSuiteBites, in a child process.
func TestBrokenGame(t *testing.T) {
	if os.Getenv("CONFORMANCE_BROKEN") != "1" {
		t.Skip("run by TestSuiteBites")
	}
	d := western.Def()
	newGame := d.New
	d.New = func(rules int, opts json.RawMessage, seats int, seed [32]byte) (engine.Game, error) {
		g, err := newGame(rules, opts, seats, seed)
		if err != nil {
			return nil, err
		}
		return brokenBot{g}, nil
	}
	conformance.Run(t, d)
}

// TestSuiteBites: the suite fails a game whose bot plays outside its
// choices, and says so.
func TestSuiteBites(t *testing.T) {
	if os.Getenv("CONFORMANCE_BROKEN") == "1" {
		t.Skip("the child")
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestBrokenGame$")
	cmd.Env = append(os.Environ(), "CONFORMANCE_BROKEN=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the suite passes a broken game:\n%s", out)
	}
	if !strings.Contains(string(out), "not among its choices") {
		t.Fatalf("the suite fails the broken game for another reason:\n%s", out)
	}
}
