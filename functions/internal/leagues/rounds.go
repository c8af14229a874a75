package leagues

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/pbmgames/pbm/functions/internal/leaguerules"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/store"
)

// Sweep starts the rounds whose date has come and closes those whose
// games are all over or whose closing date has passed, in every league
// the store says is due by now; then brings each league's ratings and,
// at a season's end, its proposal up to date. Two sweeps at once change
// each thing once (see the package's doc). Leagues are swept
// service.SweepWorkers at a time; an error of one does not stop the
// others.
func (s *Service) Sweep(ctx context.Context, now time.Time) error {
	_, err := s.SweepDue(ctx, now)
	return err
}

// SweepDue is Sweep, and says how many leagues were due.
func (s *Service) SweepDue(ctx context.Context, now time.Time) (int, error) {
	ids, err := s.store.LeaguesWaking(ctx, now.Unix())
	if err != nil {
		return 0, fmt.Errorf("leagues due: %w", err)
	}
	return len(ids), service.ForEach(ctx, ids, func(ctx context.Context, id string) error {
		if err := s.sweepLeague(ctx, id, now); err != nil {
			s.log.ErrorContext(ctx, "league sweep", "league", id, "err", err)
			return fmt.Errorf("league %s: %w", id, err)
		}
		return nil
	})
}

// sweepLeague does what the clock asks of one league's current season,
// in one conditional write of the season item, read again and redone if
// another write got there first.
func (s *Service) sweepLeague(ctx context.Context, id string, now time.Time) error {
	if err := s.drainLeague(ctx, id); err != nil {
		s.log.ErrorContext(ctx, "league mail", "league", id, "err", err)
	}
	l, _, err := s.League(ctx, id)
	if err != nil {
		return err
	}
	var (
		season *Season
		ver    int64
		wake   int64
	)
	for attempt := 1; ; attempt++ {
		var stored int64
		season, ver, stored, err = s.current(ctx, id)
		if err != nil || season == nil {
			return err
		}
		changed, err := s.advance(ctx, l, season, now)
		if err != nil {
			return err
		}
		wake = season.wakeAt(now.Unix())
		if season.Over && !l.tookIn(season) {
			wake = now.Unix() // until the league has the season's ratings and proposal
		}
		if !changed && wake == stored {
			break
		}
		ver, err = s.put(ctx, id, seasonKey(season.N), season, ver, wake)
		if errors.Is(err, store.ErrConflict) && attempt < maxAttempts {
			continue
		}
		if err != nil {
			return fmt.Errorf("season %d: %w", season.N, err)
		}
		break
	}
	if err := s.takeIn(ctx, id, season); err != nil {
		return err
	}
	if season.Over && wake != 0 {
		// The league has taken the season in: nothing more is due but
		// the mail still to send. A conflict means another sweep wrote
		// the item; the next sweep finds the wake and clears it.
		if _, err := s.put(ctx, id, seasonKey(season.N), season, ver, season.wakeAt(now.Unix())); err != nil && !errors.Is(err, store.ErrConflict) {
			return fmt.Errorf("season %d: %w", season.N, err)
		}
	}
	return s.drain(ctx, id, now)
}

// advance starts and closes the season's rounds that are due, and ends the
// season after its last round. It tells whether it changed the season.
func (s *Service) advance(ctx context.Context, l *League, season *Season, now time.Time) (bool, error) {
	if season.Over {
		return false, nil
	}
	changed := s.digestDue(l, season, now.Unix())
	for i := range season.Rounds {
		r := &season.Rounds[i]
		if r.Closed {
			continue
		}
		if !r.Started {
			if now.Unix() < r.StartAt {
				break // later rounds start later still
			}
			did, err := s.startRound(ctx, l, season, r)
			if err != nil {
				return false, fmt.Errorf("start round %d of season %d: %w", r.N, season.N, err)
			}
			changed = changed || did
			if r.Started {
				s.lettersToAll(l, season, LetterRound, r.N, 0)
			}
		}
		if r.Started {
			did, err := s.closeRound(ctx, r, now)
			if err != nil {
				return false, fmt.Errorf("close round %d of season %d: %w", r.N, season.N, err)
			}
			changed = changed || did
		}
	}
	if !slices.ContainsFunc(season.Rounds, func(r Round) bool { return !r.Closed }) {
		tables, err := season.Standings()
		if err != nil {
			return false, err
		}
		season.Over, season.Tables, changed = true, tables, true
		s.lettersToAll(l, season, LetterResult, 0, 0)
		s.log.InfoContext(ctx, "season over", "league", l.ID, "season", season.N)
	}
	return changed, nil
}

// gameKey is the idempotency key of a table's game: the same table makes
// the same game however often its round is started.
func gameKey(league string, season, round, table int) string {
	return fmt.Sprintf("lg-%s-s%d-r%d-t%d", league, season, round, table)
}

// startRound makes the round's games through the game service, each with
// its table's key, seated and started at once (members joined the league
// to play: service.CreateRequest.Seated), so the round starts in the pass
// that makes it and each member is mailed only the league's "your table".
// A game made before games were made seated, waiting for its seats or its
// organiser's confirmation, is seated as it was then (seat). It tells
// whether it changed the round.
func (s *Service) startRound(ctx context.Context, l *League, sn *Season, r *Round) (bool, error) {
	season := sn.N
	changed, all := false, true
	for ti := range r.Tables {
		t := &r.Tables[ti]
		req := service.CreateRequest{Kind: l.Kind, Name: fmt.Sprintf("%s · %d.%d.%d", l.Name, season, r.N, ti+1),
			Options: l.Options, Organiser: l.Organiser, DeadlineHours: l.DeadlineHours, MissesToBot: l.MissesToBot,
			Key: gameKey(l.ID, season, r.N, ti), Client: "league/" + l.ID, Seated: true}
		for _, name := range t.Seats {
			m, ok := l.Member(name)
			if !ok {
				return false, fmt.Errorf("table %d seats %q, who is not a member", ti+1, name)
			}
			req.Seats = append(req.Seats, sn.playerOf(m, r.N))
		}
		c, err := s.games.Create(ctx, req)
		if e := service.AsError(err); e != nil && e.Code == service.CodeTooMany {
			// The organiser's limit of new games: the next sweep goes on.
			s.log.WarnContext(ctx, "league game waits for the limits", "league", l.ID, "table", ti+1, "retry_after", e.RetryAfter)
			all = false
			continue
		}
		if err != nil {
			return false, fmt.Errorf("table %d: %w", ti+1, err)
		}
		if t.Game != c.ID {
			t.Game, changed = c.ID, true
		}
		ok, err := s.seat(ctx, l, c.ID)
		if err != nil {
			return false, fmt.Errorf("table %d game %s: %w", ti+1, c.ID, err)
		}
		all = all && ok
	}
	if all {
		r.Started, changed = true, true
	}
	return changed, nil
}

// seat accepts every seat of a league's game once it may invite; it tells
// whether the game has started.
func (s *Service) seat(ctx context.Context, l *League, id string) (bool, error) {
	rec, _, err := s.games.Load(ctx, id)
	if err != nil {
		return false, err
	}
	if rec.Status == service.StatusUnconfirmed {
		ok, err := s.games.Confirmed(ctx, l.Organiser.Email)
		if err != nil || !ok {
			return false, err
		}
		if err := s.games.Confirm(ctx, id); err != nil {
			return false, err
		}
		if rec, _, err = s.games.Load(ctx, id); err != nil {
			return false, err
		}
	}
	if rec.Status != service.StatusInvited {
		return true, nil // playing (or, played on from a first start, over)
	}
	for i, st := range rec.Seats {
		if st.Accepted {
			continue
		}
		if _, err := s.games.Accept(ctx, id, i); err != nil {
			return false, fmt.Errorf("accept seat %d: %w", i, err)
		}
	}
	return true, nil
}

// closeRound records the results of a started round when all its games
// are over or its closing date has come: each game's Score, as it stands
// for a game still running. It tells whether it closed the round.
func (s *Service) closeRound(ctx context.Context, r *Round, now time.Time) (bool, error) {
	recs := make([]*service.Record, len(r.Tables))
	over := true
	for i, t := range r.Tables {
		rec, _, err := s.games.Load(ctx, t.Game)
		if err != nil {
			return false, err
		}
		recs[i] = rec
		over = over && rec.Status == service.StatusOver
	}
	if !over && now.Unix() < r.CloseAt {
		return false, nil
	}
	for i := range r.Tables {
		t, rec := &r.Tables[i], recs[i]
		g, err := s.games.Engine(rec)
		if err != nil {
			return false, err
		}
		// The engine numbers the seats that accepted; in a league game
		// every seat did, in the table's order, but the mapping is read
		// rather than assumed.
		// A seat the game's organiser gave to a substitute is still its
		// member's: the league counts the seat (issue 27).
		seats := make([]string, g.Seats())
		for inv, st := range rec.Seats {
			if first := rec.FirstInvite(inv); st.Engine >= 0 && st.Engine < len(seats) && first < len(t.Seats) {
				seats[st.Engine] = t.Seats[first]
			}
		}
		results, err := leaguerules.Results(seats, g.Score())
		if err != nil {
			return false, fmt.Errorf("game %s: %w", t.Game, err)
		}
		t.Result = &leaguerules.Table{Game: t.Game, Round: r.N, Finished: rec.Status == service.StatusOver, Results: results}
	}
	r.Closed, r.ClosedAt = true, now.Unix()
	return true, nil
}

// ratedKey names a round among those the ratings include.
func ratedKey(season, round int) string { return fmt.Sprintf("%04d/%02d", season, round) }

// tookIn tells whether the league's ratings include every closed round
// of the season and, once it is over, its proposal is made.
func (l *League) tookIn(season *Season) bool {
	for _, r := range season.Rounds {
		if r.Closed && !slices.Contains(l.Rated, ratedKey(season.N, r.N)) {
			return false
		}
	}
	return !season.Over || l.ProposedAfter == season.N
}

// takeIn rates the season's closed rounds the league has not rated yet,
// each once and in order (leaguerules.RatingModel.RateTables over the round's
// tables of every division), and at the season's end proposes the next
// one: promotion and relegation (leaguerules.Promote), the members leaving out
// and those who joined in the bottom division (leaguerules.NextSeason).
func (s *Service) takeIn(ctx context.Context, id string, season *Season) error {
	return s.updateLeague(ctx, id, func(l *League) error {
		if l.tookIn(season) {
			return errUnchanged
		}
		for _, r := range season.Rounds {
			key := ratedKey(season.N, r.N)
			if !r.Closed || slices.Contains(l.Rated, key) {
				continue
			}
			var tables []leaguerules.Table
			for _, t := range r.Tables {
				tables = append(tables, *t.Result)
			}
			ratings, err := s.rating.RateTables(l.Ratings, tables)
			if err != nil {
				return fmt.Errorf("rate round %d of season %d: %w", r.N, season.N, err)
			}
			l.Ratings, l.Rated = ratings, append(l.Rated, key)
		}
		if season.Over && l.ProposedAfter != season.N {
			next, moves, err := leaguerules.Promote(season.Tables, l.Swap)
			if err != nil {
				// Divisions too small to swap so many: the organiser
				// decides; the proposal keeps the divisions.
				s.log.WarnContext(ctx, "no promotion", "league", id, "season", season.N, "err", err)
				next, moves = nil, nil
				for _, rows := range season.Tables {
					var names []string
					for _, row := range rows {
						names = append(names, row.Member)
					}
					next = append(next, names)
				}
			}
			var leaving, joining []string
			seated := map[string]bool{}
			for _, div := range season.Divisions {
				for _, name := range div {
					seated[name] = true
				}
			}
			for _, m := range l.Members {
				switch {
				case m.Leaving && seated[m.Name]:
					leaving = append(leaving, m.Name)
				case !m.Leaving && !m.Pending && !seated[m.Name]:
					joining = append(joining, m.Name)
				}
			}
			proposal, err := leaguerules.NextSeason(next, leaving, joining)
			if err != nil {
				return fmt.Errorf("propose season %d: %w", season.N+1, err)
			}
			l.Proposal, l.Moves, l.ProposedAfter = proposal, moves, season.N
		}
		return nil
	})
}
