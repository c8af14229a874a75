package businessman

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

var update = flag.Bool("update", false, "regenerate the golden games in testdata/golden")

// golden is a whole recorded bot game: enough to replay it, and the result
// it must reach.
type golden struct {
	// Rules is the rules version the game was played under; the files
	// recorded before versions were kept are of version 2.
	Rules    int              `json:"rules,omitempty"`
	Options  Options          `json:"options"`
	Seats    int              `json:"seats"`
	Seed     string           `json:"seed"` // hex, 32 bytes
	Actions  int              `json:"actions"`
	Score    []engine.Score   `json:"score"`
	State    string           `json:"state_sha256"`    // of the final state's JSON
	MaxState int              `json:"max_state_bytes"` // the largest serialised state seen
	Log      []engine.Command `json:"log"`
}

// maxStateBytes is the budget for one stored state.
const maxStateBytes = 20 << 10

var goldenGames = []struct {
	file  string
	rules int
	seats int
	opts  Options
	seed  [32]byte
}{
	{"bots-2.json", 2, 2, DefaultOptions(), [32]byte{2, 20}},
	{"bots-4.json", 2, 4, DefaultOptions(), [32]byte{4, 20}},
	{"bots-6.json", 2, 6, DefaultOptions(), [32]byte{6, 20}},
	{"bots-4-claim.json", 2, 4, Options{Laps: 10, RentClaim: RentClaim}, [32]byte{4, 10}},
	// Rules version 3: deals answered in the seats' own time, purchases
	// kept for later.
	{"bots-4-rules3.json", 3, 4, DefaultOptions(), [32]byte{4, 20, 3}},
	{"bots-6-rules3.json", 3, 6, Options{Laps: 10, RentClaim: RentAuto}, [32]byte{6, 10, 3}},
}

// newRuled is New under rules version rules.
func newRuled(rules int) func(Options, int, [32]byte) (*State, error) {
	return func(opts Options, seats int, seed [32]byte) (*State, error) {
		s, err := New(opts, seats, seed)
		if err == nil {
			s.Rules = Rulebook[rules]
		}
		return s, err
	}
}

// botStep plays one bot command of a whole bot game: the oldest open
// deal's answer, or the move of the seat that owes one.
func botStep(s *State) (int, engine.Action) {
	for _, d := range s.Deals.Open {
		if a, ok := s.DealAnswer(d, nil, true); ok {
			return d.To, a
		}
	}
	seat := s.Owing()[0]
	a, _ := s.Bot(seat)
	return seat, a
}

func stateHash(t testing.TB, s *State) string {
	b, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// playBots records a whole bot game, checking the invariants on the way.
func playBots(t testing.TB, rules int, opts Options, seats int, seed [32]byte) golden {
	t.Helper()
	s, err := newRuled(rules)(opts, seats, seed)
	if err != nil {
		t.Fatal(err)
	}
	g := golden{Options: opts, Seats: seats, Seed: hex.EncodeToString(seed[:])}
	if rules != 2 {
		g.Rules = rules
	}
	for !s.Over() {
		seat, a := botStep(s)
		cash := cashOf(s)
		ev, err := engine.Play(s, seat, a, nil)
		if err != nil {
			t.Fatalf("bot: %v", err)
		}
		checkInvariants(t, s, cash, ev)
		g.Log = append(g.Log, engine.Command{Seat: seat, Action: a})
		b, _ := s.Marshal()
		g.MaxState = max(g.MaxState, len(b))
	}
	g.Actions = len(g.Log)
	g.Score = s.Score()
	g.State = stateHash(t, s)
	return g
}

func TestGoldenGames(t *testing.T) {
	for _, gg := range goldenGames {
		t.Run(gg.file, func(t *testing.T) {
			got := playBots(t, gg.rules, gg.opts, gg.seats, gg.seed)
			if got.MaxState > maxStateBytes {
				t.Fatalf("a state of %d bytes, over %d", got.MaxState, maxStateBytes)
			}
			path := filepath.Join("testdata", "golden", gg.file)
			b, err := json.MarshalIndent(got, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			var want golden
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			// The recorded log replays to the recorded state and score (P-1).
			seed, _ := hex.DecodeString(want.Seed)
			rules := max(want.Rules, 2)
			s, err := engine.Replay(newRuled(rules), want.Options, want.Seats, [32]byte(seed), want.Log)
			if err != nil {
				t.Fatal(err)
			}
			if stateHash(t, s) != want.State || !s.Over() {
				t.Fatal("the golden log replays to another state")
			}
			sc, _ := json.Marshal(s.Score())
			wsc, _ := json.Marshal(want.Score)
			if !bytes.Equal(sc, wsc) {
				t.Fatalf("score %s, golden %s", sc, wsc)
			}
			// And today's bots still play the same game.
			if !bytes.Equal(bytes.TrimSpace(raw), b) {
				t.Fatal("the bots' game differs from the golden file (run with -update if intended)")
			}
		})
	}
}
