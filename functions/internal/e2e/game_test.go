package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// chooser picks an action from a legal list the way a casual player would:
// mostly the default, sometimes anything but leaving the game (so that
// the game is played to its end), amounts anywhere in range.
type chooser struct{ r *rand.Rand }

func (c chooser) pick(legal []engine.Choice) engine.Action {
	if c.r.IntN(10) < 6 {
		for _, ch := range legal {
			if ch.Default {
				return ch.Action
			}
		}
	}
	legal = slices.DeleteFunc(slices.Clone(legal), func(ch engine.Choice) bool { return ch.Type == engine.Resign })
	ch := legal[c.r.IntN(len(legal))]
	a := ch.Action
	if ch.Ranged() {
		a.Amount = ch.Min + ch.Step*c.r.Int64N(min((ch.Max-ch.Min)/ch.Step+1, 20_000))
	}
	return a
}

type legalAnswer struct {
	Version int64           `json:"version"`
	Legal   []engine.Choice `json:"legal"`
}

// playOut has every seat act only through HTTP until the game ends.
func (e *env) playOut(id string, tokens []string, seed uint64) int {
	e.t.Helper()
	ch := chooser{rand.New(rand.NewPCG(seed, 1))}
	moves := 0
	for step := 0; ; step++ {
		if step > 20000 {
			e.t.Fatal("the game does not end")
		}
		var v httpapi.GameView
		e.call("GET", "/api/games/"+id, tokens[0], nil, &v)
		if v.Status == service.StatusOver {
			return moves
		}
		if len(v.Owing) == 0 {
			e.t.Fatalf("status %s and nobody owes a move", v.Status)
		}
		seat := v.Owing[ch.r.IntN(len(v.Owing))]
		var l legalAnswer
		e.call("GET", "/api/games/"+id+"/legal", tokens[seat], nil, &l)
		if len(l.Legal) == 0 {
			e.t.Fatalf("seat %d owes a move but has no legal action", seat)
		}
		a := ch.pick(l.Legal)
		var res service.Result
		body := httpapi.ActRequest{Action: a, Key: fmt.Sprintf("move-%05d-%d", step, seat), Version: l.Version}
		if st := e.call("POST", "/api/games/"+id+"/actions", tokens[seat], body, &res); st != http.StatusOK {
			e.t.Fatalf("seat %d %v: status %d", seat, a, st)
		}
		moves++
	}
}

// TestEndToEndOverHTTP plays a whole 3-seat game of each game through the
// HTTP API on dynalite, every seat choosing from the legal actions the API
// lists, then checks the result equals an engine replay of the stored log
// (P-1).
func TestEndToEndOverHTTP(t *testing.T) {
	for _, tc := range []struct{ kind, options string }{
		{"western", `{"laps":3}`},
		{"businessman", `{"laps":3,"rent_claim":"claim"}`},
	} {
		t.Run(tc.kind, func(t *testing.T) { endToEnd(t, tc.kind, tc.options) })
	}
}

func endToEnd(t *testing.T, kind, options string) {
	e := newEnv(t)
	id, tokens := e.startGame(kind, 3, options)
	moves := e.playOut(id, tokens, 7)

	var result struct {
		Over   bool           `json:"over"`
		Moves  int            `json:"moves"`
		Scores []engine.Score `json:"scores"`
	}
	e.call("GET", "/api/games/"+id+"/result", tokens[1], nil, &result)
	if !result.Over || result.Moves != moves {
		t.Fatalf("result over=%v moves=%d, played %d", result.Over, result.Moves, moves)
	}
	var log struct {
		Log []httpapi.LogEntry `json:"log"`
	}
	e.call("GET", "/api/games/"+id+"/log", tokens[2], nil, &log)
	if len(log.Log) != moves {
		t.Fatalf("log has %d entries, %d moves were made", len(log.Log), moves)
	}
	// The seed is secret: only the store has it.
	rec, _, err := e.svc.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	full, err := e.svc.FullLog(t.Context(), rec)
	if err != nil {
		t.Fatal(err)
	}
	cmds := make([]engine.Command, len(full))
	for i, en := range full {
		cmds[i] = engine.Command{Seat: en.Seat, Action: en.Action}
	}
	g, err := testGames.Engines().Replay(rec.Kind, rec.Rules, rec.Options, 3, [32]byte(rec.Seed), cmds)
	if err != nil {
		t.Fatal(err)
	}
	replayed, _ := json.Marshal(g.Score())
	served, _ := json.Marshal(result.Scores)
	if !bytes.Equal(replayed, served) {
		t.Fatalf("served result %s, replay gives %s", served, replayed)
	}
	state, _ := g.MarshalJSON()
	if !bytes.Equal(state, rec.State) {
		t.Fatal("stored state differs from the replay of the stored log")
	}
	t.Logf("%d moves over HTTP; %d chunks", moves, rec.Chunks)
}

// TestRaceOneCommitPerVersion: 8 clients send a move on the same version
// of one game at once, round after round. Exactly one commits each
// version, every other gets 409, and no committed move is lost.
func TestRaceOneCommitPerVersion(t *testing.T) {
	for _, kind := range []string{"western", "businessman"} {
		t.Run(kind, func(t *testing.T) { raceOneCommitPerVersion(t, kind) })
	}
}

func raceOneCommitPerVersion(t *testing.T, kind string) {
	e := newEnv(t)
	id, tokens := e.startGame(kind, 2, `{"laps":20}`)
	const clients, rounds = 8, 40
	var won []string
	for round := 0; round < rounds; round++ {
		var v httpapi.GameView
		e.call("GET", "/api/games/"+id, tokens[0], nil, &v)
		if v.Status != service.StatusPlaying {
			t.Fatalf("round %d: status %s", round, v.Status)
		}
		seat := v.Owing[0]
		var l legalAnswer
		e.call("GET", "/api/games/"+id+"/legal", tokens[seat], nil, &l)
		a := l.Legal[0].Action // the first choice is never ranged: roll, a path, end, pass…
		statuses := make([]int, clients)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for c := 0; c < clients; c++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				body := httpapi.ActRequest{Action: a, Key: fmt.Sprintf("race-%d-%d", round, c), Version: l.Version}
				statuses[c] = e.call("POST", "/api/games/"+id+"/actions", tokens[seat], body, nil)
			}()
		}
		close(start)
		wg.Wait()
		ok := 0
		for c, st := range statuses {
			switch st {
			case http.StatusOK:
				ok++
				won = append(won, fmt.Sprintf("race-%d-%d", round, c))
			case http.StatusConflict:
			default:
				t.Fatalf("round %d client %d: status %d", round, c, st)
			}
		}
		if ok != 1 {
			t.Fatalf("round %d: %d commits on version %d, want exactly 1", round, ok, l.Version)
		}
		var after httpapi.GameView
		e.call("GET", "/api/games/"+id, tokens[0], nil, &after)
		if after.Version != l.Version+1 {
			t.Fatalf("round %d: version %d after the race on %d", round, after.Version, l.Version)
		}
	}
	rec, _, err := e.svc.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	full, err := e.svc.FullLog(t.Context(), rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(full) != rounds {
		t.Fatalf("log holds %d moves after %d rounds", len(full), rounds)
	}
	for i, en := range full {
		if en.Key != won[i] {
			t.Fatalf("log entry %d has key %s, the winner of round %d was %s", i, en.Key, i, won[i])
		}
	}
}

// TestMoveCostsOneReadOneWrite counts the DynamoDB requests of a move
// through the API (SPEC §6): one GetItem and one conditional PutItem.
func TestMoveCostsOneReadOneWrite(t *testing.T) {
	e := newEnv(t)
	id, tokens := e.startGame("western", 2, `{"laps":20}`)
	for i := 0; i < 20; i++ {
		var v httpapi.GameView
		e.call("GET", "/api/games/"+id, tokens[0], nil, &v)
		seat := v.Owing[0]
		var l legalAnswer
		e.call("GET", "/api/games/"+id+"/legal", tokens[seat], nil, &l)
		e.ops.reset()
		body := httpapi.ActRequest{Action: l.Legal[0].Action, Key: fmt.Sprintf("count-%04d", i)}
		if st := e.call("POST", "/api/games/"+id+"/actions", tokens[seat], body, nil); st != http.StatusOK {
			t.Fatalf("move %d: %d", i, st)
		}
		ops := e.ops.reset()
		if len(ops) != 2 || ops["GetItem"] != 1 || ops["PutItem"] != 1 {
			t.Fatalf("move %d made %v, want one GetItem and one PutItem", i, ops)
		}
		// A retry with the same key answers from the one read.
		if st := e.call("POST", "/api/games/"+id+"/actions", tokens[seat], body, nil); st != http.StatusOK {
			t.Fatalf("retry %d: %d", i, st)
		}
		if ops := e.ops.reset(); len(ops) != 1 || ops["GetItem"] != 1 {
			t.Fatalf("retry %d made %v, want one GetItem", i, ops)
		}
	}
}
