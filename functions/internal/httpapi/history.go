package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// history is a started game's whole log, which replays exactly from the
// seed (P-1): the game-over chart and the log's replay step through it.
// The seed stays on the server; pages show only views.
type history struct {
	rec     *service.Record
	entries []service.Entry
	seats   int
	seed    [32]byte
}

// loadHistory reads the whole log of a started game.
func (a *api) loadHistory(ctx context.Context, rec *service.Record) (*history, error) {
	g, err := a.svc.Engine(rec)
	if err != nil {
		return nil, err
	}
	if len(rec.Seed) != 32 {
		return nil, fmt.Errorf("game %s: seed of %d bytes", rec.ID, len(rec.Seed))
	}
	entries, err := a.svc.FullLog(ctx, rec)
	if err != nil {
		return nil, err
	}
	return &history{rec: rec, entries: entries, seats: g.Seats(), seed: [32]byte(rec.Seed)}, nil
}

// start is the game before any command.
func (h *history) start() (engine.Game, error) {
	g, err := games.New(h.rec.Kind, h.rec.Rules, h.rec.Options, h.seats, h.seed)
	if err != nil {
		return nil, fmt.Errorf("replay game %s: %w", h.rec.ID, err)
	}
	return g, nil
}

// at is the game after its first n commands.
func (h *history) at(n int) (engine.Game, error) {
	g, err := h.start()
	if err != nil {
		return nil, err
	}
	for i, e := range h.entries[:min(max(n, 0), len(h.entries))] {
		if g, _, err = g.Apply(e.Seat, e.Action); err != nil {
			return nil, fmt.Errorf("replay game %s command %d: %w", h.rec.ID, i, err)
		}
	}
	return g, nil
}

// series is every seat's net worth through the game, sampled.
type series struct {
	Moves []int     // the command count at each sample
	Worth [][]int64 // Worth[seat][sample]
}

// netWorth replays the whole game and samples every seat's net worth at
// most points times, the start and the end included.
func (h *history) netWorth(points int) (series, error) {
	g, err := h.start()
	if err != nil {
		return series{}, err
	}
	n := len(h.entries)
	every := max(1, (n+points-2)/max(points-1, 1))
	s := series{Worth: make([][]int64, h.seats)}
	sample := func(moves int) {
		s.Moves = append(s.Moves, moves)
		for _, sc := range g.Score() {
			if sc.Seat >= 0 && sc.Seat < h.seats {
				s.Worth[sc.Seat] = append(s.Worth[sc.Seat], sc.NetWorth)
			}
		}
	}
	sample(0)
	for i, e := range h.entries {
		if g, _, err = g.Apply(e.Seat, e.Action); err != nil {
			return series{}, fmt.Errorf("replay game %s command %d: %w", h.rec.ID, i, err)
		}
		if (i+1)%every == 0 || i == n-1 {
			sample(i + 1)
		}
	}
	return s, nil
}

// decodeJSONBytes reads stored JSON; empty means the zero value.
func decodeJSONBytes(b []byte, v any) error {
	if len(bytes.TrimSpace(b)) == 0 || string(b) == "null" {
		return nil
	}
	return json.Unmarshal(b, v)
}
