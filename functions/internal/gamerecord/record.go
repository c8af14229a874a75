// Package gamerecord is a whole game as one JSON document anyone can check:
// its options, rules version, seats, seed and every command with what
// it caused. Verify replays it from the seed alone and names the first
// step where the replay and the record part. The format is documented
// as the GameRecord schema of the API's OpenAPI document.
package gamerecord

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/games"
)

// Format names the document and its version.
const Format = "pbm-game-record/1"

// Document is a finished game's record.
type Document struct {
	Format string `json:"format"`
	// ID is the game's id on the instance it was exported from.
	ID   string `json:"id"`
	Kind string `json:"kind"`
	// Rules is the rules version the game was played under
	// (engine/games): the replay plays it under the same.
	Rules int `json:"rules"`
	// Options as the organiser gave them (null: the defaults).
	Options json.RawMessage `json:"options"`
	// Seats are the players in the engine's turn order.
	Seats []Seat `json:"seats"`
	// SeedSHA256 is the commitment every player was shown from the
	// creation on; Seed (hex) is what it commits to.
	SeedSHA256 string `json:"seed_sha256"`
	Seed       string `json:"seed"`
	// Commands is the whole log, in order.
	Commands []Step `json:"commands"`
	// Result is what the game ended with.
	Result Result `json:"result"`
}

// Seat is one player.
type Seat struct {
	Name string `json:"name"`
}

// Step is one command and every event it caused (the rolls and cards
// among them), hidden ones included: the game is over.
type Step struct {
	N      int            `json:"n"`
	Seat   int            `json:"seat"`
	Action engine.Action  `json:"action"`
	At     int64          `json:"at,omitempty"`
	Events []engine.Event `json:"events"`
}

// Result is the end of the game.
type Result struct {
	Over   bool           `json:"over"`
	Scores []engine.Score `json:"scores"`
}

// Divergence says where a record and its replay part: Step is the
// 0-based command, or −1 for what comes before the first (the seed, the
// options), or len(Commands) for the result.
type Divergence struct {
	Step   int
	Reason string
}

func (d *Divergence) Error() string {
	switch {
	case d.Step < 0:
		return "record refused before the first step: " + d.Reason
	default:
		return fmt.Sprintf("record diverges at step %d: %s", d.Step, d.Reason)
	}
}

// ErrFormat is a document that is not a game record at all.
var ErrFormat = errors.New("not a game record")

// Report is what a successful replay checked.
type Report struct {
	Steps, Events int
	// Rolls and Cards count the dice events and the cards drawn whose
	// values the replay recomputed and found equal.
	Rolls, Cards int
	Game         engine.Game
}

// Decode reads a document, refusing unknown fields and trailing data.
func Decode(r io.Reader) (*Document, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var d Document
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the document", ErrFormat)
	}
	if d.Format != Format {
		return nil, fmt.Errorf("%w: format %q, want %q", ErrFormat, d.Format, Format)
	}
	return &d, nil
}

// SeedBytes decodes the seed and checks it against the commitment.
func (d *Document) SeedBytes() ([32]byte, error) {
	b, err := hex.DecodeString(d.Seed)
	if err != nil || len(b) != 32 {
		return [32]byte{}, &Divergence{Step: -1, Reason: "the seed is not 64 hex digits"}
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != d.SeedSHA256 {
		return [32]byte{}, &Divergence{Step: -1, Reason: fmt.Sprintf("the seed hashes to %x, not to the commitment %s", sum, d.SeedSHA256)}
	}
	return [32]byte(b), nil
}

// Verify replays the record from its seed, options and rules version and
// checks that every command is legal where it stands and causes exactly
// the events recorded — every roll, every card drawn — and that the game
// ends with the recorded result. The error is a *Divergence naming the
// first step that does not replay.
func Verify(reg *games.Registry, d *Document) (Report, error) {
	if d.Format != Format {
		return Report{}, fmt.Errorf("%w: format %q, want %q", ErrFormat, d.Format, Format)
	}
	seed, err := d.SeedBytes()
	if err != nil {
		return Report{}, err
	}
	g, err := reg.New(d.Kind, d.Rules, d.Options, len(d.Seats), seed)
	if err != nil {
		return Report{}, &Divergence{Step: -1, Reason: fmt.Sprintf("the game cannot be made: %v", err)}
	}
	rep := Report{}
	for i, st := range d.Commands {
		if st.N != i {
			return rep, &Divergence{Step: i, Reason: fmt.Sprintf("numbered %d", st.N)}
		}
		next, ev, err := g.Apply(st.Seat, st.Action)
		if err != nil {
			return rep, &Divergence{Step: i, Reason: fmt.Sprintf("seat %d %s is refused: %v", st.Seat, st.Action, err)}
		}
		if k, why := diffEvents(st.Events, ev); k >= 0 {
			return rep, &Divergence{Step: i, Reason: fmt.Sprintf("seat %d %s: event %d %s", st.Seat, st.Action, k, why)}
		}
		for _, e := range ev {
			switch {
			case e.Type == "roll":
				rep.Rolls++
			case e.Type == "card" || e.Type == "xcard_drawn":
				rep.Cards++
			}
		}
		rep.Steps++
		rep.Events += len(ev)
		g = next
	}
	end := len(d.Commands)
	if g.Over() != d.Result.Over {
		return rep, &Divergence{Step: end, Reason: fmt.Sprintf("the replayed game is over: %v, the record says %v", g.Over(), d.Result.Over)}
	}
	if a, b := mustJSON(g.Score()), mustJSON(d.Result.Scores); !bytes.Equal(a, b) {
		return rep, &Divergence{Step: end, Reason: fmt.Sprintf("the replay scores %s, the record %s", a, b)}
	}
	rep.Game = g
	return rep, nil
}

// diffEvents finds the first event where the record and the replay part
// (−1: none) and says how.
func diffEvents(recorded, replayed []engine.Event) (int, string) {
	for k := range max(len(recorded), len(replayed)) {
		switch {
		case k >= len(recorded):
			return k, fmt.Sprintf("the replay causes %s, the record nothing more", mustJSON(replayed[k]))
		case k >= len(replayed):
			return k, fmt.Sprintf("the record has %s, the replay nothing more", mustJSON(recorded[k]))
		case !bytes.Equal(mustJSON(recorded[k]), mustJSON(replayed[k])):
			return k, fmt.Sprintf("the record has %s, the replay %s", mustJSON(recorded[k]), mustJSON(replayed[k]))
		}
	}
	return -1, ""
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil { // plain data: cannot fail
		panic(fmt.Sprintf("record: %v", err))
	}
	return b
}
