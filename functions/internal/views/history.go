package views

import (
	"context"
	"fmt"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// History is a started game's whole log, which replays exactly from the
// seed (P-1): the game-over chart and the log's replay step through it.
// The seed stays on the server; pages show only views.
type History struct {
	games   *games.Registry
	rec     *service.Record
	Entries []service.Entry
	Seats   int
}

// LoadHistory reads the whole log of a started game.
func LoadHistory(ctx context.Context, svc *service.Service, rec *service.Record) (*History, error) {
	g, err := svc.Engine(rec)
	if err != nil {
		return nil, err
	}
	if len(rec.Seed) != 32 {
		return nil, fmt.Errorf("game %s: seed of %d bytes", rec.ID, len(rec.Seed))
	}
	entries, err := svc.FullLog(ctx, rec)
	if err != nil {
		return nil, err
	}
	return &History{games: svc.Games(), rec: rec, Entries: entries, Seats: g.Seats()}, nil
}

// At is the game after its first n commands.
func (h *History) At(n int) (engine.Game, error) {
	return service.Replay(h.games, h.rec, h.rec.Rules, h.Seats, h.Entries[:min(max(n, 0), len(h.Entries))], nil)
}

// Series is every seat's net worth through the game, sampled; a game
// that is over keeps it from the commit that ended it (Record.Chart).
type Series = service.Chart

// NetWorth replays the whole game and samples every seat's net worth at
// most points times, the start and the end included.
func (h *History) NetWorth(points int) (Series, error) {
	return service.NetWorth(h.games, h.rec, h.Seats, h.Entries, points)
}
