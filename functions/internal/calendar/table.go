package calendar

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// Row is one setup's games, and the name of the people who played them.
type Row struct {
	Setup  Setup
	People string
	Games  []Result
}

// Summary is a row's figures.
type Summary struct {
	Games, Unfinished   int
	DaysMedian, DaysP90 float64
	MailsMedian         float64 // per person, over every person of every game
	MailsMax            int
	WaitsMedian         float64 // per game
	LongestWait         time.Duration
	TurnsEach           float64 // median over the games
	Missed              float64 // decision mails never answered, median per game
	Bots                int     // seats handed to a bot, all games
	// StartDays is the median time the start took (confirmation,
	// acceptances); Offers and Accepted the median offers proposed and
	// carried out a game.
	StartDays, Offers, Accepted float64
}

// Summary sums a row up: medians and the 90th percentile over its games.
func (r Row) Summary() Summary {
	var days, waits, turns, missed, mails, start, offers, accepted []float64
	s := Summary{Games: len(r.Games)}
	for _, g := range r.Games {
		if !g.Finished {
			s.Unfinished++
		}
		days = append(days, g.Days)
		waits = append(waits, float64(g.Waits))
		turns = append(turns, g.TurnsEach())
		missed = append(missed, float64(g.Missed))
		start = append(start, g.StartDays)
		offers = append(offers, float64(g.Offers))
		accepted = append(accepted, float64(g.OffersAccepted))
		for _, m := range g.Mails {
			mails = append(mails, float64(m))
			s.MailsMax = max(s.MailsMax, m)
		}
		s.LongestWait = max(s.LongestWait, g.LongestWait)
		s.Bots += g.Bots
	}
	s.DaysMedian, s.DaysP90 = Quantile(days, 0.5), Quantile(days, 0.9)
	s.MailsMedian, s.WaitsMedian = Quantile(mails, 0.5), Quantile(waits, 0.5)
	s.TurnsEach, s.Missed = Quantile(turns, 0.5), Quantile(missed, 0.5)
	s.StartDays, s.Offers, s.Accepted = Quantile(start, 0.5), Quantile(offers, 0.5), Quantile(accepted, 0.5)
	return s
}

// Quantile is the q-quantile of xs, linear between order statistics
// (NaN for no values).
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(s)-1)
	return s[lo] + (s[hi]-s[lo])*(pos-float64(lo))
}

// Run plays n seeded games (seeds 1…n) of every setup, workers at a time,
// and answers the rows in the order of setups. progress, if not nil, is
// told of each game as it ends.
func Run(ctx context.Context, cfg Config, setups []Setup, n, workers int, progress func(Setup, Result)) ([]Row, error) {
	rows := make([]Row, len(setups))
	people := cfg.People.Name
	if people == "" {
		people = Untouching.Name
	}
	for i, s := range setups {
		rows[i] = Row{Setup: s, People: people, Games: make([]Result, n)}
	}
	type job struct{ row, game int }
	jobs := make(chan job)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() {
			for j := range jobs {
				res, err := Play(ctx, cfg, setups[j.row], uint64(j.game+1))
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				rows[j.row].Games[j.game] = res
				if err == nil && progress != nil {
					progress(setups[j.row], res)
				}
				mu.Unlock()
			}
		})
	}
	for r := range setups {
		for g := range n {
			jobs <- job{r, g}
		}
	}
	close(jobs)
	wg.Wait()
	return rows, firstErr
}

// WriteTable prints the rows as a Markdown table.
func WriteTable(w io.Writer, rows []Row) error {
	var b strings.Builder
	b.WriteString("| game | options | seats | deadline | people | games | days: median | days: 90 % | of which the start | turns each | mails a person: median (max) | waits a game: median | longest wait | missed mails a game | offers a game (accepted) | seats to a bot |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		s := r.Summary()
		opts := "defaults"
		if len(r.Setup.Options) > 0 {
			opts = "`" + string(r.Setup.Options) + "`"
		}
		games := fmt.Sprint(s.Games)
		if s.Unfinished > 0 {
			games += fmt.Sprintf(" (%d unfinished)", s.Unfinished)
		}
		d := r.Setup.DeadlineHours
		if d == 0 {
			d = service.DefaultDeadlineHours
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d h | %s | %s | %.1f | %.1f | %.1f | %.0f | %.0f (%d) | %.0f | %.1f h | %.0f | %.0f (%.0f) | %d |\n",
			r.Setup.Kind, opts, r.Setup.Seats, d, r.People, games, s.DaysMedian, s.DaysP90, s.StartDays, s.TurnsEach,
			s.MailsMedian, s.MailsMax, s.WaitsMedian, s.LongestWait.Hours(), s.Missed, s.Offers, s.Accepted, s.Bots)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// DefaultMatrix is the table the command prints: every game at 4 seats
// (or its nearest) at its default options (the length by mail,
// games.Info.Defaults), at the longest length it offers (the full
// board-game length, 20 laps) and at its second shortest (2 laps).
func DefaultMatrix(reg *games.Registry) []Setup {
	var out []Setup
	for _, pick := range []func(offered []int) int{
		nil, // the default options
		func(o []int) int { return slices.Max(o) },
		func(o []int) int { return o[min(1, len(o)-1)] },
	} {
		for _, info := range reg.List() {
			s := Setup{Kind: info.Kind, Seats: min(max(4, info.MinSeats), info.MaxSeats)}
			if pick != nil {
				if len(info.Length.Offered) == 0 {
					continue
				}
				s.Options = info.Length.Options(pick(info.Length.Offered))
			}
			out = append(out, s)
		}
	}
	return out
}
