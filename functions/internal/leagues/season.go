package leagues

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/functions/internal/leaguerules"
	"github.com/pbmgames/pbm/functions/internal/lengths"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/store"
)

// Season is one season of a league.
type Season struct {
	N         int        `json:"n"` // 1, 2, …
	Divisions [][]string `json:"divisions"`
	Start     int64      `json:"start"`
	Rounds    []Round    `json:"rounds"`
	Over      bool       `json:"over,omitempty"`
	// Tables is each division's season table, once the season is over.
	Tables [][]leaguerules.Row `json:"tables,omitempty"`
	// Substitutes seated by the organiser (substitutes.go).
	Substitutes []Substitute `json:"substitutes,omitempty"`
	// Outbox is the league's mails decided and not yet sent; DigestAt is
	// when the next weekly standings are due (letters.go).
	Outbox   []Letter `json:"outbox,omitempty"`
	DigestAt int64    `json:"digest_at,omitempty"`
}

// Round is one round of a season: its dates and tables.
type Round struct {
	N       int   `json:"n"` // 1, 2, …
	StartAt int64 `json:"start_at"`
	CloseAt int64 `json:"close_at"` // a game still running then is scored as it stands
	// Started: every game is made and its seats accepted.
	Started  bool    `json:"started,omitempty"`
	Closed   bool    `json:"closed,omitempty"`
	ClosedAt int64   `json:"closed_at,omitempty"`
	Tables   []Table `json:"tables"`
}

// Table is one game of a round.
type Table struct {
	Division int      `json:"division"` // 0 = top
	Seats    []string `json:"seats"`    // members in seat (turn) order
	Game     string   `json:"game,omitempty"`
	// Result is the table's result, recorded once when the round closes.
	Result *leaguerules.Table `json:"result,omitempty"`
}

// RoundLength is the time a round of the league is given: RoundDays if
// the organiser set it, else the 90th percentile of the calendar
// simulator's length of the league's game at its table size and deadline
// (package lengths), in whole days, and at least a day; two weeks when the
// simulator has no figure for the game.
func (l *League) RoundLength(reg *games.Registry) time.Duration {
	days := l.RoundDays
	if days == 0 {
		days = 14
		info, _ := reg.Lookup(l.Kind)
		n, set := info.Length.Of(l.Options)
		est, err := lengths.Figures(reg, l.Kind, l.Options, l.TableSize, l.DeadlineHours)
		if err == nil && set {
			for _, e := range est {
				if e.Laps == n {
					days = max(1, e.DaysP90)
				}
			}
		}
	}
	return time.Duration(days) * 24 * time.Hour
}

// Proposal is the divisions the next season would seat: for the first
// season the members who confirmed their address in the order they
// joined, split into the league's
// divisions (the first ones a member larger where they do not divide
// evenly); after a season, what its end proposed. The organiser confirms
// it, or edits it, with StartSeason.
func (s *Service) Proposal(ctx context.Context, id string) ([][]string, error) {
	l, _, err := s.League(ctx, id)
	if err != nil {
		return nil, err
	}
	last, _, _, err := s.current(ctx, id)
	if err != nil {
		return nil, err
	}
	if last == nil {
		var names []string
		for _, m := range l.Members {
			if !m.Leaving && !m.Pending {
				names = append(names, m.Name)
			}
		}
		out := make([][]string, l.Divisions)
		for d := range out {
			from, to := d*len(names)/l.Divisions, (d+1)*len(names)/l.Divisions
			out[d] = slices.Clone(names[from:to])
		}
		return out, nil
	}
	if !last.Over || l.ProposedAfter != last.N {
		return nil, &service.Error{Code: service.CodeWrongStatus, RU: "Сезон ещё не окончен.", EN: "The season is not over yet."}
	}
	return l.Proposal, nil
}

// StartSeason starts the next season with the divisions the organiser
// confirmed (nil: the proposal as it stands), its first round at start:
// each division is seated for the whole season (leaguerules.PlanDivision, from
// a seed made of the league, the season and the division, so the same
// season is seated the same way). The sweep then makes each round's games
// on its date. It answers the season's number. Of two starts at once one
// succeeds.
//
// A season starts only once the organiser has confirmed their address,
// seats only members who confirmed theirs, and counts against the limits
// of seasons of the client and the organiser (service.CountSeasons).
func (s *Service) StartSeason(ctx context.Context, id string, divisions [][]string, start time.Time, client string) (int, error) {
	l, _, err := s.League(ctx, id)
	if err != nil {
		return 0, err
	}
	if ready, err := s.organiserReady(ctx, l); err != nil || !ready {
		if err == nil {
			err = errUnconfirmed
		}
		return 0, err
	}
	if divisions == nil {
		if divisions, err = s.Proposal(ctx, id); err != nil {
			return 0, err
		}
	}
	last, _, _, err := s.current(ctx, id)
	if err != nil {
		return 0, err
	}
	n := 1
	if last != nil {
		// The league takes a season in (ratings, proposal) in the sweep
		// that ends it: only then may the next begin, or the last round
		// would never be rated.
		if !last.Over || !l.tookIn(last) {
			return 0, &service.Error{Code: service.CodeWrongStatus, RU: "Текущий сезон ещё идёт.", EN: "The current season is still running."}
		}
		n = last.N + 1
	}
	seen := map[string]bool{}
	for _, div := range divisions {
		for _, name := range div {
			m, ok := l.Member(name)
			if !ok || seen[name] {
				return 0, invalid("В дивизионах не участник или участник дважды: "+name, "Not a member, or a member twice, in the divisions: "+name)
			}
			if m.Pending {
				return 0, invalid("Адрес участника ещё не подтверждён: "+name, "A member has not confirmed their address yet: "+name)
			}
			seen[name] = true
		}
	}
	season := &Season{N: n, Divisions: divisions, Start: start.Unix()}
	length := l.RoundLength(s.games.Games())
	for r := range l.Rounds {
		from := start.Add(time.Duration(r) * length)
		season.Rounds = append(season.Rounds, Round{N: r + 1, StartAt: from.Unix(), CloseAt: from.Add(length).Unix()})
	}
	for d, members := range divisions {
		plan, err := leaguerules.PlanDivision(members, l.Format(s.games.Games()), seatingSeed(l.ID, n, d))
		if err != nil {
			return 0, invalid(fmt.Sprintf("Дивизион %d: %v", d+1, err), fmt.Sprintf("Division %d: %v", d+1, err))
		}
		for r, tables := range plan {
			for _, seats := range tables {
				season.Rounds[r].Tables = append(season.Rounds[r].Tables, Table{Division: d, Seats: seats})
			}
		}
	}
	if err := s.games.Admit(ctx, service.CountSeasons, l.Organiser.Email, client); err != nil {
		return 0, err
	}
	if s.decides() {
		season.DigestAt = start.Add(DigestEvery).Unix()
		s.lettersToAll(l, season, LetterStart, 0, 0)
	}
	// The first round wakes the sweep on its date, even one already past;
	// mail to send wakes it at once.
	wake := season.Rounds[0].StartAt
	if len(season.Outbox) > 0 {
		wake = min(wake, s.now().Unix())
	}
	if _, err := s.put(ctx, id, seasonKey(n), season, 0, wake); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return 0, &service.Error{Code: service.CodeConflict, RU: "Этот сезон уже начат.", EN: "That season has started already.", Cause: err}
		}
		return 0, fmt.Errorf("start season %d of league %s: %w", n, id, err)
	}
	s.log.InfoContext(ctx, "season started", "league", id, "season", n, "divisions", len(divisions))
	return n, nil
}

// seatingSeed is the seed of one division's seating in one season.
func seatingSeed(league string, season, division int) uint64 {
	h := sha256.Sum256([]byte("seating\x00" + league + "\x00" + strconv.Itoa(season) + "\x00" + strconv.Itoa(division)))
	return binary.LittleEndian.Uint64(h[:8])
}

// Season reads season n of a league and its version.
func (s *Service) Season(ctx context.Context, id string, n int) (*Season, int64, error) {
	var season Season
	ver, err := s.get(ctx, id, seasonKey(n), &season)
	if err != nil {
		return nil, 0, err
	}
	return &season, ver, nil
}

// current reads the latest season of a league (nil before the first),
// its version and its wake time.
func (s *Service) current(ctx context.Context, id string) (*Season, int64, int64, error) {
	items, err := s.store.LeagueItems(ctx, id, "season/")
	if err != nil {
		return nil, 0, 0, fmt.Errorf("seasons of league %s: %w", id, err)
	}
	if len(items) == 0 {
		return nil, 0, 0, nil
	}
	last := items[len(items)-1]
	var season Season
	if err := json.Unmarshal(last.Body, &season); err != nil {
		return nil, 0, 0, fmt.Errorf("league %s %s: %w", id, last.Key, err)
	}
	return &season, last.Version, last.WakeAt, nil
}

// Results is every recorded table of division d, in round order.
func (season *Season) Results(d int) []leaguerules.Table {
	var out []leaguerules.Table
	for _, r := range season.Rounds {
		for _, t := range r.Tables {
			if t.Division == d && t.Result != nil {
				out = append(out, *t.Result)
			}
		}
	}
	return out
}

// Standings is each division's season table from the rounds closed so far.
func (season *Season) Standings() ([][]leaguerules.Row, error) {
	out := make([][]leaguerules.Row, len(season.Divisions))
	for d, members := range season.Divisions {
		rows, err := leaguerules.Standings(members, season.Results(d))
		if err != nil {
			return nil, fmt.Errorf("season %d division %d: %w", season.N, d+1, err)
		}
		out[d] = rows
	}
	return out, nil
}

// PointsByRound is each member of division d's running total of points
// after each round (hundredths), for the chart of the season.
func (season *Season) PointsByRound(d int) (map[string][]int64, error) {
	return leaguerules.PointsByRound(season.Divisions[d], season.Results(d), len(season.Rounds))
}

// wakeAt is when the season next needs the sweep: a round's start still
// to come; for a round due but not yet started (its games wait for the
// organiser to confirm their address, or for the limits of new games),
// now+WaitEvery; for a round that is open, now+CheckEvery, and no later
// than its closing date; the weekly standings' date;
// for mail not yet sent, now+CheckEvery; 0 once every round is closed and
// every mail sent.
func (season *Season) wakeAt(now int64) int64 {
	var wake int64 = math.MaxInt64
	check := now + int64(CheckEvery/time.Second)
	if len(season.Outbox) > 0 {
		wake = check
	}
	if season.DigestAt > 0 && !season.Over {
		wake = min(wake, max(season.DigestAt, now))
	}
	for _, r := range season.Rounds {
		switch {
		case r.Closed:
		case !r.Started && r.StartAt > now:
			wake = min(wake, r.StartAt)
		case !r.Started:
			wake = min(wake, now+int64(WaitEvery/time.Second))
		default:
			wake = min(wake, check, r.CloseAt)
		}
	}
	if wake == math.MaxInt64 {
		return 0
	}
	return wake
}
