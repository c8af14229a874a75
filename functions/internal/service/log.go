package service

import (
	"context"
	"fmt"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/games"
)

// FullLog reads the whole log: the chunks, then the recent entries.
func (s *Service) FullLog(ctx context.Context, rec *Record) ([]Entry, error) {
	chunks, err := s.store.Chunks(ctx, rec.ID)
	if err != nil {
		return nil, fmt.Errorf("log of game %s: %w", rec.ID, err)
	}
	var out []Entry
	for _, c := range chunks {
		if c.Seq >= rec.Chunks {
			break // written by a commit that then lost its race
		}
		var part []Entry
		if err := decode(c.Body, &part); err != nil {
			return nil, fmt.Errorf("log of game %s chunk %d: %w", rec.ID, c.Seq, err)
		}
		out = append(out, part...)
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

// Replay plays entries of a started game's log from its seed (P-1), under
// rules version rules and with seats seats: the one replay of the service
// and of the pages. visit, when set, sees the game at the start and after
// each entry (n: the entries played so far).
func Replay(rec *Record, rules, seats int, entries []Entry, visit func(n int, g engine.Game)) (engine.Game, error) {
	if len(rec.Seed) != 32 {
		return nil, fmt.Errorf("replay game %s: seed of %d bytes", rec.ID, len(rec.Seed))
	}
	if visit == nil {
		g, err := games.Replay(rec.Kind, rules, rec.Options, seats, [32]byte(rec.Seed), commands(entries))
		if err != nil {
			return nil, fmt.Errorf("replay game %s: %w", rec.ID, err)
		}
		return g, nil
	}
	g, err := games.New(rec.Kind, rules, rec.Options, seats, [32]byte(rec.Seed))
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

// KeepChart stores c as the chart of game id, once it is over and if it
// has none yet: the first view of its game-over page replays the game,
// the following ones read it. A write that loses a race is not retried:
// the next view tries again.
func (s *Service) KeepChart(ctx context.Context, id string, c Chart) error {
	rec, ver, err := s.Load(ctx, id)
	if err != nil {
		return err
	}
	if rec.Status != StatusOver || rec.Chart != nil {
		return nil
	}
	rec.Chart = &c
	if _, err := s.commit(ctx, rec, ver); err != nil {
		return fmt.Errorf("keep the chart of game %s: %w", id, err)
	}
	return nil
}
