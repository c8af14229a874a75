package gamerecord_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/gamerecord"
)

var update = flag.Bool("update", false, "record the released-version games in testdata/ anew (only for a version that has none yet)")

// released are the recorded games kept for each released rules version:
// testdata/<kind>-rules<version>.json, and the SHA-256 of the final state
// it replays to beside it.
var released = []struct {
	kind, options string
	seats, rules  int
}{
	{"western", `{"laps":2}`, 3, 2},
	{"businessman", `{"laps":3}`, 3, 2},
}

// TestReleasedVersionsReplay (issue 15): a recorded game of every
// released rules version replays under its version to exactly its final
// state and scores, whatever the current version is. A rules change that
// alters outcomes without a new version fails it.
func TestReleasedVersionsReplay(t *testing.T) {
	for _, r := range released {
		name := fmt.Sprintf("%s-rules%d", r.kind, r.rules)
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name+".json")
			if *update {
				doc := botGame(t, r.kind, r.options, r.seats, sha256.Sum256([]byte(name)))
				if doc.Rules != r.rules {
					t.Fatalf("the current rules are version %d: a game of version %d cannot be recorded anew", doc.Rules, r.rules)
				}
				b, err := json.MarshalIndent(doc, "", " ")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := gamerecord.Decode(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			if doc.Rules != r.rules {
				t.Fatalf("%s is of rules version %d", path, doc.Rules)
			}
			rep, err := gamerecord.Verify(testGames.Engines(), doc)
			if err != nil {
				t.Fatal(err)
			}
			state, err := rep.Game.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(state)
			got := hex.EncodeToString(sum[:])
			statePath := filepath.Join("testdata", name+".state-sha256")
			if *update {
				if err := os.WriteFile(statePath, []byte(got+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(statePath)
			if err != nil {
				t.Fatal(err)
			}
			if got != strings.TrimSpace(string(want)) {
				t.Errorf("%s replays to a final state of SHA-256 %s, recorded %s", path, got, want)
			}
			t.Logf("%s: %d steps, %d rolls, %d cards; final state %s", name, rep.Steps, rep.Rolls, rep.Cards, got[:12])
		})
	}
}
