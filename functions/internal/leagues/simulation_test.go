package leagues_test

import (
	"container/heap"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/calendar"
	"github.com/pbmgames/pbm/functions/internal/leaguerules"
	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// people is the simulated members of a league: each answers a decision
// their game asks of them after a delay drawn from the calendar
// simulator's model (calendar.Model: log-normal, counted in their waking
// hours, in their time zone, some decisions never answered), as a person
// answers a turn mail; the vanished never answer. The league's sweep and
// the games' deadlines run every hour. Everything follows from the seed.
type people struct {
	t        *testing.T
	ctx      context.Context
	svc      *service.Service
	lg       *leagues.Service
	clock    *clock
	league   string
	model    calendar.Model
	rng      *rand.Rand
	zones    map[string]int // member → zone
	vanished map[string]bool
	queue    visits
	seq      int
	// asked is the position of each (game, seat) a visit is planned or
	// was missed for, so each turn is answered (or missed) once.
	asked map[string]int64
	keys  int
	// ordered lists the games whose members have set their standing
	// orders: everyone does as their game starts (calendar.DefaultConfig's
	// sensible orders), the vanished member too, before vanishing.
	ordered map[string]bool
}

// visit is a member's visit to one game's page, or a run of the sweep
// (game "").
type visit struct {
	at     time.Time
	seq    int
	game   string
	invite int
}

type visits []visit

func (q visits) Len() int { return len(q) }
func (q visits) Less(i, j int) bool {
	if !q[i].at.Equal(q[j].at) {
		return q[i].at.Before(q[j].at)
	}
	return q[i].seq < q[j].seq
}
func (q visits) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *visits) Push(x any)   { *q = append(*q, x.(visit)) }
func (q *visits) Pop() any {
	old := *q
	v := old[len(old)-1]
	*q = old[:len(old)-1]
	return v
}

func (p *people) push(v visit) {
	p.seq++
	v.seq = p.seq
	heap.Push(&p.queue, v)
}

// run plays until the season is over, or fails the test at limit.
func (p *people) run(season int, limit time.Time) *leagues.Season {
	p.t.Helper()
	p.push(visit{at: p.clock.Now()})
	for p.queue.Len() > 0 {
		v := heap.Pop(&p.queue).(visit)
		if v.at.After(limit) {
			p.t.Fatalf("season %d not over by %s", season, limit)
		}
		p.clock.Set(v.at)
		if v.game == "" {
			if err := p.lg.Sweep(p.ctx, v.at); err != nil {
				p.t.Fatalf("league sweep at %s: %v", v.at, err)
			}
			if _, err := p.svc.TickAll(p.ctx); err != nil {
				p.t.Fatalf("tick at %s: %v", v.at, err)
			}
			s, _, err := p.lg.Season(p.ctx, p.league, season)
			if err != nil {
				p.t.Fatal(err)
			}
			if s.Over {
				return s
			}
			p.push(visit{at: v.at.Add(time.Hour)})
		} else if err := calendar.Visit(p.ctx, p.svc, v.game, v.invite, p.key); err != nil {
			p.t.Fatalf("visit of seat %d of game %s at %s: %v", v.invite, v.game, v.at, err)
		}
		p.plan(season)
	}
	p.t.Fatal("nothing left to happen")
	return nil
}

// plan schedules a visit for every decision owed in the season's games
// that nobody has been asked for yet.
func (p *people) plan(season int) {
	s, _, err := p.lg.Season(p.ctx, p.league, season)
	if err != nil {
		p.t.Fatal(err)
	}
	for _, r := range s.Rounds {
		if !r.Started || r.Closed {
			continue
		}
		for _, table := range r.Tables {
			rec, _, err := p.svc.Load(p.ctx, table.Game)
			if err != nil {
				p.t.Fatal(err)
			}
			if rec.Status != service.StatusPlaying {
				continue
			}
			if !p.ordered[table.Game] {
				p.ordered[table.Game] = true
				for inv := range rec.Seats {
					if err := calendar.SetSuggestedOrders(p.ctx, p.svc, table.Game, inv); err != nil {
						p.t.Fatal(err)
					}
				}
				if rec, _, err = p.svc.Load(p.ctx, table.Game); err != nil {
					p.t.Fatal(err)
				}
				if rec.Status != service.StatusPlaying {
					continue
				}
			}
			g, err := p.svc.Engine(rec)
			if err != nil {
				p.t.Fatal(err)
			}
			for inv, st := range rec.Seats {
				seat := st.Engine
				key := fmt.Sprintf("%s/%d", table.Game, inv)
				if !slices.Contains(g.Owing(), seat) || p.asked[key] == rec.SeatPosition(seat) {
					continue
				}
				p.asked[key] = rec.SeatPosition(seat)
				name := table.Seats[inv]
				if p.vanished[name] || p.rng.Float64() < p.model.MissRate {
					continue
				}
				zone := p.model.Zones[p.zones[name]%len(p.model.Zones)]
				p.push(visit{at: p.model.Answer(p.clock.Now(), p.model.Delay(p.rng), zone), game: table.Game, invite: inv})
			}
		}
	}
}

// key is a fresh key for a member's decision, as their page makes one.
func (p *people) key() string {
	p.keys++
	return fmt.Sprintf("member-%06d", p.keys)
}

// describe writes a season's tables and standings, as the fixture below
// is checked against.
func describe(s *leagues.Season) string {
	var b strings.Builder
	for _, r := range s.Rounds {
		for _, t := range r.Tables {
			pts, _ := leaguerules.TablePoints(t.Result.Results)
			fmt.Fprintf(&b, "R%d D%d finished=%v:", r.N, t.Division+1, t.Result.Finished)
			order := slices.Clone(t.Result.Results)
			for i := range order {
				order[i].NetWorth = pts[i]*1_000_000_000 + order[i].NetWorth // carry the points along
			}
			slices.SortFunc(order, func(a, b leaguerules.Result) int { return a.Place - b.Place })
			for _, res := range order {
				fmt.Fprintf(&b, " %d.%s(%s, nw %d)", res.Place, res.Member, leaguerules.FormatPoints(res.NetWorth/1_000_000_000), res.NetWorth%1_000_000_000)
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// standingsText is each division's table: rank, member, points, net worth.
func standingsText(tables [][]leaguerules.Row) string {
	var b strings.Builder
	for d, rows := range tables {
		fmt.Fprintf(&b, "D%d:", d+1)
		for _, r := range rows {
			fmt.Fprintf(&b, " %d.%s %s/%d", r.Rank, r.Member, leaguerules.FormatPoints(r.Points), r.NetWorth)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
