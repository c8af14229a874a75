package service

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/games"
)

// FullLog reads the whole log: the chunks, then the recent entries. The
// game's own chunks are found from its newest back (Record.ChunkTag, each
// chunk's Prev): a chunk a commit wrote before it lost its race to
// another is passed over.
func (s *Service) FullLog(ctx context.Context, rec *Record) ([]Entry, error) {
	chunks, err := s.store.Chunks(ctx, rec.ID)
	if err != nil {
		return nil, fmt.Errorf("log of game %s: %w", rec.ID, err)
	}
	type at struct {
		seq int
		tag string
	}
	bodies := make(map[at][]byte, len(chunks))
	for _, c := range chunks {
		bodies[at{c.Seq, c.Tag}] = c.Body
	}
	parts := make([][]Entry, rec.Chunks)
	n := 0
	for seq, tag := rec.Chunks-1, rec.ChunkTag; seq >= 0; seq-- {
		body, ok := bodies[at{seq, tag}]
		if !ok {
			return nil, fmt.Errorf("log of game %s: chunk %d %q missing", rec.ID, seq, tag)
		}
		var c chunkBody
		if err := c.decode(body); err != nil {
			return nil, fmt.Errorf("log of game %s chunk %d: %w", rec.ID, seq, err)
		}
		parts[seq], tag = c.Entries, c.Prev
		n += len(c.Entries)
	}
	out := make([]Entry, 0, n+rec.Log.Len())
	for _, p := range parts {
		out = append(out, p...)
	}
	recent, err := rec.Recent()
	if err != nil {
		return nil, err
	}
	out = append(out, recent...)
	if len(out) != rec.Moves {
		return nil, fmt.Errorf("log of game %s: %d entries, want %d", rec.ID, len(out), rec.Moves)
	}
	return out, nil
}

// chunkBody is what a chunk item holds: a run of log entries, and the
// tag of the chunk before it (store.Chunk.Tag). Chunks written before
// tags were are a bare list of entries, with untagged chunks before them.
type chunkBody struct {
	Prev    string  `json:"p,omitempty"`
	Entries []Entry `json:"e"`
}

func (c *chunkBody) decode(body []byte) error {
	var raw json.RawMessage
	if err := decode(body, &raw); err != nil {
		return err
	}
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
		*c = chunkBody{}
		return json.Unmarshal(raw, &c.Entries)
	}
	return json.Unmarshal(raw, c)
}

// Replay plays entries of a started game's log from its seed (P-1), under
// rules version rules and with seats seats: the one replay of the service
// and of the pages. visit, when set, sees the game at the start and after
// each entry (n: the entries played so far).
func Replay(reg *games.Registry, rec *Record, rules, seats int, entries []Entry, visit func(n int, g engine.Game)) (engine.Game, error) {
	if len(rec.Seed) != 32 {
		return nil, fmt.Errorf("replay game %s: seed of %d bytes", rec.ID, len(rec.Seed))
	}
	if visit == nil {
		g, err := reg.Replay(rec.Kind, rules, rec.Options, seats, [32]byte(rec.Seed), commands(entries))
		if err != nil {
			return nil, fmt.Errorf("replay game %s: %w", rec.ID, err)
		}
		return g, nil
	}
	g, err := reg.New(rec.Kind, rules, rec.Options, seats, [32]byte(rec.Seed))
	if err != nil {
		return nil, fmt.Errorf("replay game %s: %w", rec.ID, err)
	}
	visit(0, g)
	for i, e := range entries {
		if g, _, err = g.Apply(e.Seat, e.Action); err != nil {
			return nil, fmt.Errorf("replay game %s command %d: %w", rec.ID, i, err)
		}
		visit(i+1, g)
	}
	return g, nil
}

// commands are the engine's commands of log entries.
func commands(entries []Entry) []engine.Command {
	cmds := make([]engine.Command, len(entries))
	for i, e := range entries {
		cmds[i] = engine.Command{Seat: e.Seat, Action: e.Action}
	}
	return cmds
}

// Chart is every seat's net worth through a game, sampled: what the
// game-over page draws. A game that is over keeps it (Record.Chart), so
// that the page reads the one game item instead of replaying the whole
// log from its chunks on every view.
type Chart struct {
	Moves []int     `json:"m"` // the command count at each sample
	Worth [][]int64 `json:"w"` // Worth[seat][sample]
}

// ChartPoints bounds the samples of a game's net-worth chart.
const ChartPoints = 200

// NetWorth replays entries, the whole log of a game of seats seats, and
// samples every seat's net worth at most points times, the start and the
// end included.
func NetWorth(reg *games.Registry, rec *Record, seats int, entries []Entry, points int) (Chart, error) {
	n := len(entries)
	every := max(1, (n+points-2)/max(points-1, 1))
	c := Chart{Worth: make([][]int64, seats)}
	_, err := Replay(reg, rec, rec.Rules, seats, entries, func(moves int, g engine.Game) {
		if moves != 0 && moves%every != 0 && moves != n {
			return
		}
		c.Moves = append(c.Moves, moves)
		for _, sc := range g.Score() {
			if sc.Seat >= 0 && sc.Seat < seats {
				c.Worth[sc.Seat] = append(c.Worth[sc.Seat], sc.NetWorth)
			}
		}
	})
	if err != nil {
		return Chart{}, err
	}
	return c, nil
}

// keepChart gives a game that is over, in the commit that ends it, its
// net-worth chart, so that its game-over page reads the one game item
// instead of replaying the log from its chunks on every view (and no page
// view ever writes). A chart that cannot be made is left out: the page
// then replays, as for a game that ended before charts were kept.
func (s *Service) keepChart(ctx context.Context, rec *Record) {
	if rec.Status != StatusOver || rec.Chart != nil || len(rec.Seed) != 32 {
		return
	}
	g, err := s.Engine(rec)
	if err == nil {
		var entries []Entry
		if entries, err = s.FullLog(ctx, rec); err == nil {
			var c Chart
			if c, err = NetWorth(s.games, rec, g.Seats(), entries, ChartPoints); err == nil {
				rec.Chart = &c
				return
			}
		}
	}
	s.log.WarnContext(ctx, "net worth chart not kept", "game", rec.ID, "err", err.Error())
}
