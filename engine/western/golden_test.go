package western

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

var update = flag.Bool("update", false, "regenerate the golden games in testdata/")

// golden is a whole recorded game: enough to replay it and the result it
// must reach.
type golden struct {
	// Rules is the rules version the game was played under; the files
	// recorded before versions were kept are of version 2.
	Rules   int              `json:"rules,omitempty"`
	Options Options          `json:"options"`
	Seats   int              `json:"seats"`
	Seed    string           `json:"seed"` // hex, 32 bytes
	Log     []engine.Command `json:"log,omitempty"`
	Score   []engine.Score   `json:"score"`
	State   string           `json:"state_sha256"` // of the final state's JSON
	// MaxState is the largest serialised state seen during the game.
	MaxState int `json:"max_state_bytes"`
}

var goldenGames = []struct {
	file  string
	rules int
	seats int
	opts  Options
}{
	{"bots-2.json", 2, 2, Options{Laps: 20}},
	{"bots-4.json", 2, 4, Options{Laps: 20}},
	{"bots-6.json", 2, 6, Options{Laps: 20}},
	{"bots-3-beginners.json", 2, 3, Options{Laps: 10, Beginners: true}},
	// Rules version 3: W-18 offers answered in the seats' own time,
	// purchases kept for later.
	{"bots-4-rules3.json", 3, 4, Options{Laps: 20}},
	{"bots-6-rules3.json", 3, 6, Options{Laps: 5}},
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

// playBots records a whole bot game under rules version rules.
func playBots(t testing.TB, rules int, opts Options, seats int, seed [32]byte) golden {
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
		if _, err := engine.Play(s, seat, a, nil); err != nil {
			t.Fatalf("bot: %v", err)
		}
		g.Log = append(g.Log, engine.Command{Seat: seat, Action: a})
		g.MaxState = max(g.MaxState, len(mustJSON(t, s)))
	}
	g.Score = s.Score()
	sum := sha256.Sum256(mustJSON(t, s))
	g.State = hex.EncodeToString(sum[:])
	return g
}

// TestGoldenReplays replays recorded whole games and checks they reach
// exactly the recorded state and score (P-1). `go test -run Golden -update`
// records them anew after a deliberate rule change.
func TestGoldenReplays(t *testing.T) {
	for i, gg := range goldenGames {
		path := filepath.Join("testdata", "golden", gg.file)
		if *update {
			seed := sha256.Sum256([]byte(fmt.Sprintf("western golden %d", i)))
			g := playBots(t, gg.rules, gg.opts, gg.seats, seed)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, encodeGolden(g), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Run(gg.file, func(t *testing.T) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to record)", err)
			}
			var g golden
			if err := json.Unmarshal(b, &g); err != nil {
				t.Fatal(err)
			}
			var seed [32]byte
			if n, err := hex.Decode(seed[:], []byte(g.Seed)); err != nil || n != 32 {
				t.Fatalf("seed: %v", err)
			}
			rules := max(g.Rules, 2)
			s, err := engine.Replay(newRuled(rules), g.Options, g.Seats, seed, g.Log)
			if err != nil {
				t.Fatal(err)
			}
			if !s.Over() {
				t.Fatal("the replayed game did not end")
			}
			sum := sha256.Sum256(mustJSON(t, s))
			if hex.EncodeToString(sum[:]) != g.State {
				t.Error("final state differs from the recording")
			}
			got, _ := json.Marshal(s.Score())
			want, _ := json.Marshal(g.Score)
			if !bytes.Equal(got, want) {
				t.Errorf("score %s, recorded %s", got, want)
			}
			if g.MaxState > maxStateBytes {
				t.Errorf("largest state %d bytes > %d", g.MaxState, maxStateBytes)
			}
			// The bots still choose the recorded moves: they are
			// deterministic too.
			if !*update {
				again := playBots(t, rules, g.Options, g.Seats, seed)
				if len(again.Log) != len(g.Log) || again.State != g.State {
					t.Error("the bots no longer play the recorded game")
				}
			}
		})
	}
}

// encodeGolden writes one command a line, so a changed game diffs readably.
func encodeGolden(g golden) []byte {
	log := g.Log
	g.Log = nil
	head, _ := json.MarshalIndent(g, "", " ")
	var b bytes.Buffer
	b.Write(head[:len(head)-2]) // reopen the object: drop "\n}"
	b.WriteString(",\n \"log\": [\n")
	for i, c := range log {
		line, _ := json.Marshal(c)
		b.WriteString("  ")
		b.Write(line)
		if i < len(log)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(" ]\n}\n")
	return b.Bytes()
}
