package gamerecord_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/gamerecord"
)

// botGame is the record of a whole game the engine's bots play.
func botGame(t *testing.T, kind, options string, seats int, seed [32]byte) *gamerecord.Document {
	t.Helper()
	g, err := testGames.Engines().New(kind, testGames.Engines().CurrentRules(kind), json.RawMessage(options), seats, seed)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(seed[:])
	doc := &gamerecord.Document{Format: gamerecord.Format, ID: "bots", Kind: kind, Rules: testGames.Engines().CurrentRules(kind), Options: json.RawMessage(options),
		SeedSHA256: hex.EncodeToString(sum[:]), Seed: hex.EncodeToString(seed[:])}
	for i := range seats {
		doc.Seats = append(doc.Seats, gamerecord.Seat{Name: string(rune('A' + i))})
	}
	for n := 0; !g.Over(); n++ {
		if n > 50000 {
			t.Fatal("the bots did not end the game")
		}
		seat := g.Owing()[0]
		a, ok := g.Bot(seat)
		if !ok {
			t.Fatalf("no bot move for seat %d", seat)
		}
		next, ev, err := g.Apply(seat, a)
		if err != nil {
			t.Fatal(err)
		}
		doc.Commands = append(doc.Commands, gamerecord.Step{N: n, Seat: seat, Action: a, Events: ev})
		g = next
	}
	doc.Result = gamerecord.Result{Over: true, Scores: g.Score()}
	return doc
}

// roundTrip writes a document and reads it back, as a file does.
func roundTrip(t *testing.T, doc *gamerecord.Document) *gamerecord.Document {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	out, err := gamerecord.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var kinds = []struct {
	kind, options string
	seats         int
	cards         bool
}{
	{"western", `{"laps":3}`, 4, false},
	{"businessman", `{"laps":4}`, 3, true},
}

// TestVerifyWholeGames: the record of a whole game of each kind, written
// and read back, replays — every roll and card recomputed.
func TestVerifyWholeGames(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.kind, func(t *testing.T) {
			doc := roundTrip(t, botGame(t, k.kind, k.options, k.seats, [32]byte{1, 5}))
			rep, err := gamerecord.Verify(testGames.Engines(), doc)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Steps != len(doc.Commands) || rep.Rolls == 0 || k.cards && rep.Cards == 0 {
				t.Errorf("checked %d of %d steps, %d rolls, %d cards", rep.Steps, len(doc.Commands), rep.Rolls, rep.Cards)
			}
		})
	}
}

// TestVerifyNamesFirstDivergence: each way of tampering with a record is
// refused at the step where it begins.
func TestVerifyNamesFirstDivergence(t *testing.T) {
	for _, k := range kinds {
		base := botGame(t, k.kind, k.options, k.seats, [32]byte{2, 7})
		firstRoll := func(d *gamerecord.Document, from int) (int, int) {
			for i := from; i < len(d.Commands); i++ {
				for j, e := range d.Commands[i].Events {
					if e.Type == "roll" {
						return i, j
					}
				}
			}
			t.Fatal("no roll")
			return 0, 0
		}
		mid := len(base.Commands) / 2
		rolled, _ := firstRoll(base, mid)
		for _, tc := range []struct {
			name string
			step int // −2: some step, wherever the first roll or card now differs
			edit func(d *gamerecord.Document)
		}{
			{"a die changed", rolled, func(d *gamerecord.Document) {
				i, j := firstRoll(d, mid)
				e := &d.Commands[i].Events[j]
				if e.Other > 0 {
					e.Other = e.Other%6 + 1
				} else {
					e.Cell = e.Cell%6 + 1
				}
			}},
			{"an event dropped", mid, func(d *gamerecord.Document) {
				if len(d.Commands[mid].Events) == 0 {
					d.Commands[mid].Events = append(d.Commands[mid].Events, d.Commands[mid-1].Events...)
					return
				}
				d.Commands[mid].Events = d.Commands[mid].Events[1:]
			}},
			{"a command by another seat", mid, func(d *gamerecord.Document) {
				d.Commands[mid].Seat = (d.Commands[mid].Seat + 1) % len(d.Seats)
			}},
			{"a command renumbered", mid, func(d *gamerecord.Document) { d.Commands[mid].N++ }},
			{"the last command dropped", len(base.Commands) - 1, func(d *gamerecord.Document) {
				d.Commands = d.Commands[:len(d.Commands)-1]
			}},
			{"a net worth raised", len(base.Commands), func(d *gamerecord.Document) { d.Result.Scores[1].NetWorth++ }},
			{"another seed", -1, func(d *gamerecord.Document) { d.Seed = d.Seed[2:] + "00" }},
			{"a seed and commitment both swapped", -2, func(d *gamerecord.Document) {
				seed := [32]byte{9}
				sum := sha256.Sum256(seed[:])
				d.Seed, d.SeedSHA256 = hex.EncodeToString(seed[:]), hex.EncodeToString(sum[:])
			}},
			{"other options", -2, func(d *gamerecord.Document) { d.Options = json.RawMessage(`{"laps":2}`) }},
		} {
			t.Run(k.kind+"/"+tc.name, func(t *testing.T) {
				d := roundTrip(t, base)
				tc.edit(d)
				_, err := gamerecord.Verify(testGames.Engines(), d)
				var div *gamerecord.Divergence
				if !errors.As(err, &div) {
					t.Fatalf("Verify: %v, want a divergence", err)
				}
				if tc.step == -2 {
					if div.Step < 0 || div.Step > len(d.Commands) {
						t.Errorf("diverges at %d: %v", div.Step, err)
					}
				} else if div.Step != tc.step {
					t.Errorf("diverges at %d, want %d: %v", div.Step, tc.step, err)
				}
				t.Log(err)
			})
		}
	}
}

// TestDecodeRefusesOtherDocuments: only this format is read.
func TestDecodeRefusesOtherDocuments(t *testing.T) {
	for _, in := range []string{``, `[]`, `{"format":"pbm-game-record/2"}`, `{"format":"pbm-game-record/1","colour":1}`,
		`{"format":"pbm-game-record/1"} {}`} {
		if _, err := gamerecord.Decode(bytes.NewReader([]byte(in))); !errors.Is(err, gamerecord.ErrFormat) {
			t.Errorf("Decode(%s): %v, want ErrFormat", in, err)
		}
	}
}
