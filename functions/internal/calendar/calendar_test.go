package calendar

import (
	"container/heap"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/service"
)

// TestDelay: the drawn delays have the model's median and 90th percentile.
func TestDelay(t *testing.T) {
	m := DefaultModel()
	r := rand.New(rand.NewPCG(1, 2))
	var xs []float64
	for range 100_000 {
		xs = append(xs, m.Delay(r).Hours())
	}
	for _, c := range []struct{ q, want float64 }{{0.5, 2}, {0.9, 10}} {
		if got := Quantile(xs, c.q); got < c.want*0.97 || got > c.want*1.03 {
			t.Errorf("quantile %.1f of the delay: %.2f h, want %.0f h", c.q, got, c.want)
		}
	}
}

// TestAnswerNeverAtNight: whenever a mail comes and however long a person
// takes, they answer while awake in their own zone, and no sooner than the
// delay.
func TestAnswerNeverAtNight(t *testing.T) {
	m := DefaultModel()
	r := rand.New(rand.NewPCG(3, 4))
	base := time.Date(2027, 3, 20, 0, 0, 0, 0, time.UTC) // across a change to summer time
	for i := range 50_000 {
		at := base.Add(time.Duration(r.Int64N(int64(30 * 24 * time.Hour))))
		d := m.Delay(r)
		loc := m.Zones[i%len(m.Zones)]
		got := m.Answer(at, d, loc)
		if h := got.In(loc).Hour(); h < m.WakeHour || h >= m.SleepHour {
			t.Fatalf("mail at %s, delay %s in %s: answered at %s, asleep", at, d, loc, got.In(loc))
		}
		if got.Sub(at) < d {
			t.Fatalf("mail at %s, delay %s: answered at %s, too soon", at, d, got)
		}
	}
	// A mail at 22:30 in Moscow with a 2-hour delay: half an hour that
	// evening, the rest from 08:00.
	msk := m.Zones[0]
	if got, want := m.Answer(time.Date(2027, 1, 4, 22, 30, 0, 0, msk), 2*time.Hour, msk), time.Date(2027, 1, 5, 9, 30, 0, 0, msk); !got.Equal(want) {
		t.Errorf("22:30 + 2 h: %s, want %s", got, want)
	}
}

// TestPlay plays short games of both games through the service and checks
// what it measures against the game's own log: people act only while
// awake, a mail nobody answers is played by the deadline, the same seed
// gives the same game.
func TestPlay(t *testing.T) {
	ctx := context.Background()
	for _, setup := range []Setup{
		{Kind: "western", Seats: 3, Options: json.RawMessage(`{"laps":1}`)},
		{Kind: "businessman", Seats: 2, Options: json.RawMessage(`{"laps":1}`), DeadlineHours: 24},
	} {
		t.Run(setup.Kind, func(t *testing.T) {
			cfg := Config{Games: testGames, Model: DefaultModel(), Dir: t.TempDir()}
			var first Result
			var byPerson, byDeadline, byOrder int
			res, err := play(ctx, cfg, setup, 7, func(s *sim) error {
				rec, _, err := s.svc.Load(ctx, s.id)
				if err != nil {
					return err
				}
				log, err := s.svc.FullLog(ctx, rec)
				if err != nil {
					return err
				}
				for _, e := range log {
					inv := -1
					for i, st := range rec.Seats {
						if st.Engine == e.Seat {
							inv = i
						}
					}
					switch {
					case strings.HasPrefix(e.Key, "pg"): // KeyOf's
						byPerson++
						loc := s.people[inv].zone
						if h := time.Unix(e.At, 0).In(loc).Hour(); h < cfg.Model.WakeHour || h >= cfg.Model.SleepHour {
							t.Errorf("entry %d: seat %d acted at %s in %s", e.N, e.Seat, time.Unix(e.At, 0).In(loc), loc)
						}
					case strings.HasPrefix(e.Key, "deadline-"):
						byDeadline++
					case e.By == service.ByOrder:
						byOrder++
					default:
						t.Errorf("entry %d made by %q (%s): neither a person, their orders nor the deadline", e.N, e.Key, e.By)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			first = res
			t.Logf("%v: %.1f days, %d turns, mails %v, waits %d, longest %s, missed %d; %d commands by people, %d by their orders, %d by deadlines",
				setup, res.Days, res.Turns, res.Mails, res.Waits, res.LongestWait, res.Missed, byPerson, byOrder, byDeadline)
			if !res.Finished || res.Days <= 0 || res.Turns == 0 || res.Waits == 0 {
				t.Errorf("result %+v: the game did not play out", res)
			}
			// A missed mail's decision is played by its deadline — or by
			// the seat's orders once it answers the purchase it kept for
			// later, which lets them keep the new one (rules 3).
			if res.Missed > 0 && byDeadline == 0 && byOrder == 0 {
				t.Errorf("%d mails missed, none played by the deadline or the orders", res.Missed)
			}
			deadline := time.Duration(setup.DeadlineHours) * time.Hour
			if deadline == 0 {
				deadline = service.DefaultDeadlineHours * time.Hour
			}
			if res.LongestWait > deadline+sweepEvery {
				t.Errorf("longest wait %s: over the deadline %s and a sweep", res.LongestWait, deadline)
			}
			for i, m := range res.Mails {
				if m == 0 {
					t.Errorf("person %d got no mail", i)
				}
			}
			again, err := Play(ctx, cfg, setup, 7)
			if err != nil {
				t.Fatal(err)
			}
			if again.Days != first.Days || again.Waits != first.Waits || again.Turns != first.Turns {
				t.Errorf("same seed, another game: %+v then %+v", first, again)
			}
			other, err := Play(ctx, cfg, setup, 8)
			if err != nil {
				t.Fatal(err)
			}
			if other.Days == first.Days {
				t.Errorf("seeds 7 and 8 gave the same %.3f days", first.Days)
			}
		})
	}
}

// BenchmarkPlay: one 2-lap 4-seat «Вестерн» through the service.
func BenchmarkPlay(b *testing.B) {
	setup := Setup{Kind: "western", Seats: 4, Options: json.RawMessage(`{"laps":2}`)}
	cfg := Config{Games: testGames, Model: DefaultModel(), Dir: os.Getenv("CALENDAR_DIR")}
	for i := range b.N {
		if _, err := Play(context.Background(), cfg, setup, uint64(i+1)); err != nil {
			b.Fatal(err)
		}
	}
}

// TestStaleVisitEndsNoWait: a person following an old mail's link, whose
// decisions were made meanwhile, finds "already done" and plays nothing —
// not even the newer decision the seat owes by then, whose own mail was
// missed — so the newer wait goes on until its deadline (issue 23: the
// simulator flattered the figures by letting old mails end newer waits).
func TestStaleVisitEndsNoWait(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Games: testGames, Model: DefaultModel(), Dir: t.TempDir(), People: NoOrders}
	s, closeSim, err := newSim(ctx, cfg, Setup{Kind: "western", Seats: 2, Options: json.RawMessage(`{"laps":2}`)}, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer closeSim()
	// Set up with every confirmation and acceptance at once.
	if err := s.create(); err != nil {
		t.Fatal(err)
	}
	for s.queue.Len() > 0 {
		e := heap.Pop(&s.queue).(event)
		if e.what != evConfirm && e.what != evAccept {
			continue
		}
		if err := s.handle(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.afterEvent(); err != nil {
		t.Fatal(err)
	}
	rec, _, err := s.svc.Load(ctx, s.id)
	if err != nil || rec.Status != service.StatusPlaying {
		t.Fatalf("game not started: %v %v", err, rec.Status)
	}
	g, err := s.svc.Engine(rec)
	if err != nil {
		t.Fatal(err)
	}
	first := g.Turn()
	person := -1
	for i, st := range rec.Seats {
		if st.Engine == first {
			person = i
		}
	}
	oldMail := rec.SeatPosition(first) // the link of the turn mail just sent
	// The turn is played from elsewhere (another mail's link, the page
	// from "my games"), then the other seat plays, until the first seat
	// owes a new round — whose mail the person misses.
	key := 0
	next := func() string { key++; return fmt.Sprintf("test-key-%04d", key) }
	for range 50 {
		rec, _, _ = s.svc.Load(ctx, s.id)
		if rec.SeatPosition(first) > oldMail {
			if g, _ = s.svc.Engine(rec); slices.Contains(g.Owing(), first) {
				break
			}
		}
		for i := range rec.Seats {
			if err := Visit(ctx, s.svc, s.id, i, next); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.afterEvent(); err != nil {
		t.Fatal(err)
	}
	rec, _, _ = s.svc.Load(ctx, s.id)
	if g, _ = s.svc.Engine(rec); !slices.Contains(g.Owing(), first) || rec.SeatPosition(first) == oldMail {
		t.Fatalf("seat %d does not owe a newer round (position %d)", first, rec.SeatPosition(first))
	}
	step := rec.SeatStep(first)
	if !s.people[person].waiting {
		t.Fatalf("person %d is not waited for", person)
	}
	// Now the old mail's visit comes.
	s.now = s.now.Add(time.Hour)
	if err := s.handle(event{at: s.now, what: evVisit, person: person, position: oldMail}); err != nil {
		t.Fatal(err)
	}
	if err := s.afterEvent(); err != nil {
		t.Fatal(err)
	}
	rec, _, _ = s.svc.Load(ctx, s.id)
	if got := rec.SeatStep(first); got != step {
		t.Errorf("the visit of an old mail (position %d) played the seat's newer decision: step %d → %d", oldMail, step, got)
	}
	if !s.people[person].waiting {
		t.Errorf("the visit of an old mail ended the newer wait")
	}
	if s.stale != 1 {
		t.Errorf("stale visits counted: %d, want 1", s.stale)
	}
}
