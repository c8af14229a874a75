package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/gamerecord"
)

// TestCheck: the command accepts a record file that replays and names the
// divergent step of one that does not.
func TestCheck(t *testing.T) {
	seed := [32]byte{3}
	g, err := testGames.Engines().New("businessman", testGames.Engines().CurrentRules("businessman"), json.RawMessage(`{"laps":2}`), 2, seed)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(seed[:])
	doc := gamerecord.Document{Format: gamerecord.Format, ID: "cmd", Kind: "businessman", Rules: testGames.Engines().CurrentRules("businessman"), Options: json.RawMessage(`{"laps":2}`),
		Seats: []gamerecord.Seat{{Name: "A"}, {Name: "B"}}, SeedSHA256: hex.EncodeToString(sum[:]), Seed: hex.EncodeToString(seed[:])}
	for n := 0; !g.Over(); n++ {
		seat := g.Owing()[0]
		a, _ := g.Bot(seat)
		next, ev, err := g.Apply(seat, a)
		if err != nil {
			t.Fatal(err)
		}
		doc.Commands = append(doc.Commands, gamerecord.Step{N: n, Seat: seat, Action: a, Events: ev})
		g = next
	}
	doc.Result = gamerecord.Result{Over: true, Scores: g.Score()}
	write := func(name string, d gamerecord.Document) string {
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if err := check(write("good.json", doc)); err != nil {
		t.Fatalf("a good record: %v", err)
	}
	doc.Commands[3].Seat = 1 - doc.Commands[3].Seat
	var div *gamerecord.Divergence
	if err := check(write("bad.json", doc)); !errors.As(err, &div) || div.Step != 3 {
		t.Fatalf("a record with step 3 by the other seat: %v, want a divergence at step 3", err)
	}
	if err := check(filepath.Join(t.TempDir(), "none.json")); err == nil || errors.As(err, &div) {
		t.Fatalf("a missing file: %v", err)
	}
}
