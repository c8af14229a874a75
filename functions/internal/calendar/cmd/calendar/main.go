// Command calendar prints the calendar simulator's table (SPEC §6): for
// each game, seat count and options of the matrix, 20 seeded games played
// through the real service by simulated people, and how long they took.
//
//	go run ./functions/internal/calendar/cmd/calendar              # the default matrix
//	go run ./functions/internal/calendar/cmd/calendar -kind <kind> -seats 4 -options '{"laps":2}'
//	go run ./functions/internal/calendar/cmd/calendar -write        # regenerate functions/internal/lengths/lengths.json
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/pbmgames/pbm/functions/internal/calendar"
	"github.com/pbmgames/pbm/functions/internal/catalog"
	"github.com/pbmgames/pbm/functions/internal/lengths"
)

func main() {
	var (
		games    = flag.Int("games", 20, "seeded games a row")
		workers  = flag.Int("j", runtime.GOMAXPROCS(0), "games played at once")
		maxDays  = flag.Int("max-days", calendar.DefaultMaxDays, "simulated days after which a game counts as unfinished")
		kind     = flag.String("kind", "", "one row: the game ("+kinds()+") instead of the default matrix")
		seats    = flag.Int("seats", 4, "with -kind: seats")
		options  = flag.String("options", "", "with -kind: the game's options as JSON (empty: defaults)")
		deadline = flag.Int("deadline", 0, "with -kind: hours for a decision (0: the service's default)")
		misses   = flag.Int("misses-to-bot", 0, "with -kind: missed deadlines in a row before a bot takes a seat (0: the simulator's 100)")
		verbose  = flag.Bool("v", false, "print each game as it ends")
		write    = flag.Bool("write", false, "simulate the lengths the create page offers and write their estimates to -out")
		only     = flag.String("laps", "", "with -write: only these lengths, comma-separated (the others keep their figures in -out)")
		onlyGame = flag.String("game", "", "with -write: only this game's lengths, or these games' (comma-separated; the others keep their figures in -out)")
		noOrders = flag.Bool("no-orders", false, "everyone turns standing orders off (-people no-orders)")
		people   = flag.String("people", "untouched", "what the people do with their standing orders: "+calendar.PopulationNames())
		noTrade  = flag.Bool("no-trade", false, "people never prepare an offer (they still answer the others')")
		out      = flag.String("out", "functions/internal/lengths/lengths.json", "with -write: the file (run from the repository's root)")
	)
	flag.Parse()
	gs := catalog.Games()
	cfg := calendar.DefaultConfig(gs)
	cfg.MaxDays = *maxDays
	pop, ok := calendar.Populations[*people]
	if !ok {
		fail(fmt.Errorf("-people %q: one of %s", *people, calendar.PopulationNames()))
	}
	cfg.People = pop
	if *noOrders {
		cfg.People = calendar.NoOrders
	}
	cfg.NoTrade = *noTrade
	setups := calendar.DefaultMatrix(gs.Engines())
	if *kind != "" {
		s := calendar.Setup{Kind: *kind, Seats: *seats, DeadlineHours: *deadline, MissesToBot: *misses}
		if *options != "" {
			if !json.Valid([]byte(*options)) {
				fail(fmt.Errorf("-options is not JSON: %s", *options))
			}
			s.Options = json.RawMessage(*options)
		}
		setups = []calendar.Setup{s}
	}
	var progress func(calendar.Setup, calendar.Result)
	if *verbose {
		progress = func(s calendar.Setup, r calendar.Result) {
			fmt.Fprintf(os.Stderr, "%v seed %d: %.1f days (started after %.1f), finished %v, turns each %.0f, mails %v, waits %d, longest %.1f h, missed %d, bots %d, moves %d, game writes %d, organiser's mails %d, visits %d (stale %d), decisions posted %d, offers %d (accepted %d), prepared %d, holds %d\n",
				s, r.Seed, r.Days, r.StartDays, r.Finished, r.TurnsEach(), r.Mails, r.Waits, r.LongestWait.Hours(), r.Missed, r.Bots, r.Moves, r.Writes, r.OrganiserMails, r.Visits, r.StaleVisits, r.Decisions, r.Offers, r.OffersAccepted, r.Prepared, r.Holds)
		}
	}
	began := time.Now()
	if *write {
		save := func(d lengths.Data) error {
			b, err := lengths.Marshal(d)
			if err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "%s: %d points after %s\n", *out, len(d.Points), time.Since(began).Round(time.Second))
			return os.WriteFile(*out, b, 0o644)
		}
		var old lengths.Data
		var pick calendar.Only
		if *only != "" {
			for _, f := range strings.Split(*only, ",") {
				n, err := strconv.Atoi(strings.TrimSpace(f))
				if err != nil {
					fail(fmt.Errorf("-laps: %w", err))
				}
				pick.Lengths = append(pick.Lengths, n)
			}
		}
		if *onlyGame != "" {
			for _, k := range strings.Split(*onlyGame, ",") {
				pick.Kinds = append(pick.Kinds, strings.TrimSpace(k))
			}
		}
		if len(pick.Lengths) > 0 || len(pick.Kinds) > 0 {
			b, err := os.ReadFile(*out)
			if err != nil {
				fail(err)
			}
			if err := json.Unmarshal(b, &old); err != nil {
				fail(fmt.Errorf("%s: %w", *out, err))
			}
		}
		if _, err := calendar.Lengths(context.Background(), cfg, *workers, old, pick, progress, save); err != nil {
			fail(err)
		}
		return
	}
	rows, err := calendar.Run(context.Background(), cfg, setups, *games, *workers, progress)
	if err != nil {
		fail(err)
	}
	if err := calendar.WriteTable(os.Stdout, rows); err != nil {
		fail(err)
	}
	fmt.Fprintf(os.Stderr, "%d rows of %d games in %s\n", len(rows), *games, time.Since(began).Round(time.Second))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "calendar:", err)
	os.Exit(1)
}

// kinds lists the catalog's games' kinds for the help text.
func kinds() string { return strings.Join(catalog.Games().Kinds(), ", ") }
