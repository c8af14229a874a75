// Package calendar is the calendar simulator (SPEC §1.7, §6): it plays
// whole games through the real service — the bbolt store, the notifier
// and the composer, the deadlines and the sweep — with simulated people
// who answer their mail after a delay, sleep at night and sometimes miss
// a mail, on a simulated clock, and measures how long a game takes in
// calendar days, how much mail each person gets and how often and how
// long the game waits for a person.
//
// It is a discrete-event simulation: a queue of events in simulated time
// (a person's visit, a run of the scheduled sweep), nothing sleeps. Every
// figure follows from a seed.
package calendar

import (
	"container/heap"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store/boltstore"
)

// Setup is one row of a matrix: which game, with which options, at how
// many seats, under which service settings.
type Setup struct {
	Kind    string
	Options json.RawMessage // nil: the game's defaults
	Seats   int
	// DeadlineHours is the time for a decision; 0: the service's default.
	DeadlineHours int
	// MissesToBot as in service.CreateRequest; 0: SimMissesToBot.
	MissesToBot int
}

// SimMissesToBot is the simulator's misses before a bot takes a seat: as
// many as the service allows, so that people who miss a mail now and then
// keep their seats. With the service's default of 2, two misses in a row
// (1 in 400 decisions) would hand the seat to a bot for the rest of the
// game, and the measure would be of bots, not people.
const SimMissesToBot = 100

func (s Setup) String() string {
	opts := "defaults"
	if len(s.Options) > 0 {
		opts = string(s.Options)
	}
	d := s.DeadlineHours
	if d == 0 {
		d = service.DefaultDeadlineHours
	}
	return fmt.Sprintf("%s %s, %d seats, %d h", s.Kind, opts, s.Seats, d)
}

// Config says how to simulate.
type Config struct {
	// Games are the games played (the catalog's): required.
	Games *present.Games
	Model Model
	// MaxDays caps the simulated time of a game: a game still running
	// then is reported unfinished.
	MaxDays int
	// People says what each simulated person does with their standing
	// orders (Habit), person by person, in turn; none: nobody touches them.
	People Population
	// NoTrade: people never prepare an offer (they still answer those
	// made to them). By default each person, whenever they are on one of
	// their pages, prepares the offer a careful bot would make at its
	// next turn (PrepareOffer).
	NoTrade bool
	// Dir holds the games' store files; the system's temporary directory
	// when empty.
	Dir string
	// Deploy, when set, makes what the game is played on instead of the
	// bbolt store with the notifier run after each commit (Deployment).
	Deploy func(ctx context.Context, env DeployEnv) (*Deployment, error)
}

// DefaultMaxDays is a cap no game reaches today: a 6-seat 20-lap game of
// the slower kind with two weeks a decision takes about 3,000 days.
const DefaultMaxDays = 10000

// Result is what one game measured.
type Result struct {
	Seed     uint64
	Finished bool
	Days     float64 // from the creation to the end (or to the cap)
	// Mails[i] counts every mail person i got (invitation to the final
	// standings); Kinds counts the mails of all people by kind.
	Mails []int
	Kinds map[string]int
	// Waits counts the times the game waited for a person: a seat owed a
	// decision when the event that gave it ended, until that seat acted.
	Waits       int
	LongestWait time.Duration
	Missed      int // decision mails nobody answered
	Turns       int // turns played, all seats together
	Moves       int // commands in the log
	// Writes counts the writes of the game item (its version at the end):
	// its creation, acceptances and start, every commit of a decision
	// (with the moves standing orders and bots play in it), the sweep's.
	Writes int
	// OrganiserMails counts the mails to the organiser, who holds no seat.
	OrganiserMails int
	// Visits counts the times a person opened their page; Decisions the
	// decisions they posted there (each a request of its own).
	Visits, Decisions int
	// StaleVisits counts the visits whose mail's decisions had been made
	// by then (its link shows "already done"): they play nothing.
	StaleVisits int
	Bots        int // seats handed to a bot by the end
	// StartDays is the time from the creation to the start of play: the
	// organiser's confirmation and everyone's acceptance.
	StartDays float64
	// Offers counts the deals proposed (made at a turn, by hand or from
	// the offers prepared), OffersAccepted those carried out, Prepared the
	// offers people prepared, Holds the purchases kept for later.
	Offers, OffersAccepted, Prepared, Holds int
}

// TurnsEach is the turns a seat played, on average.
func (r Result) TurnsEach() float64 { return float64(r.Turns) / float64(len(r.Mails)) }

// decisionMail tells the mails that ask a person to decide something: the
// ones a person answers by visiting their page.
func decisionMail(kind string) bool {
	return kind == service.MailTurn || kind == service.MailDecision
}

// sweepEvery is the schedule of the sweep function (template.yaml).
const sweepEvery = service.SweepEvery

// Play simulates one game of setup from seed.
func Play(ctx context.Context, cfg Config, setup Setup, seed uint64) (Result, error) {
	return play(ctx, cfg, setup, seed, nil)
}

// play is Play; inspect, if not nil, is shown the game at its end.
func play(ctx context.Context, cfg Config, setup Setup, seed uint64, inspect func(*sim) error) (res Result, err error) {
	s, closeSim, err := newSim(ctx, cfg, setup, seed)
	if err != nil {
		return res, err
	}
	defer closeSim()
	created := s.now
	if err := s.create(); err != nil {
		return res, fmt.Errorf("%v seed %d: %w", setup, seed, err)
	}
	if err := s.afterEvent(); err != nil {
		return res, fmt.Errorf("%v seed %d: %w", setup, seed, err)
	}
	end := created.Add(time.Duration(s.cfg.MaxDays) * 24 * time.Hour)
	if err := s.run(end); err != nil {
		return res, fmt.Errorf("%v seed %d: %w", setup, seed, err)
	}
	if !s.over {
		s.now = end
	}
	if res, err = s.result(seed, created); err != nil || inspect == nil {
		return res, err
	}
	return res, inspect(s)
}

// newSim makes the simulation of one game on its deployment (closeSim
// closes it): by default its own store in a scratch folder (closeSim
// removes both), the service, the notifier and the composer on the
// simulated clock, which starts at a seeded time between 09:00 and 21:00
// Moscow time on the day the organiser creates the game.
func newSim(ctx context.Context, cfg Config, setup Setup, seed uint64) (s *sim, closeSim func(), err error) {
	if cfg.Games == nil {
		return nil, nil, errors.New("calendar: Config.Games is nil")
	}
	if cfg.MaxDays == 0 {
		cfg.MaxDays = DefaultMaxDays
	}
	if len(cfg.Model.Zones) == 0 {
		cfg.Model = DefaultModel()
	}
	s = &sim{cfg: cfg, setup: setup, ctx: ctx, seed: seed,
		rng:   rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)),
		kinds: map[string]int{}, byEmail: map[string]int{}}
	var gameSeed [32]byte
	binary.LittleEndian.PutUint64(gameSeed[:], seed)
	keys, err := linksign.NewKeyring("sim", map[string][]byte{"sim": []byte("calendar-simulator-link-key-0000")})
	if err != nil {
		return nil, nil, err
	}
	env := DeployEnv{Games: cfg.Games, Now: s.clock, Mail: s, Keys: keys, Rand: rand.NewChaCha8(gameSeed)}
	deploy := cfg.Deploy
	if deploy == nil {
		deploy = func(context.Context, DeployEnv) (*Deployment, error) { return localDeployment(cfg.Dir, env) }
	}
	d, err := deploy(ctx, env)
	if err != nil {
		return nil, nil, err
	}
	if d.Look == nil {
		d.Look = d.Service
	}
	if d.Do == nil {
		d.Do = justDo
	}
	s.d, s.svc = d, d.Service
	s.hands = hands{look: d.Look, act: d.Service, do: d.Do}
	day := time.Date(2027, 1, 4, 9, 0, 0, 0, cfg.Model.Zones[0])
	s.now = day.Add(time.Duration(s.rng.Int64N(int64(12 * time.Hour))))
	closeSim = func() {
		if d.Close != nil {
			d.Close()
		}
	}
	return s, closeSim, nil
}

// localDeployment is the simulator's own: a bbolt store (without fsync)
// in a scratch folder of dir, the notifier run after each commit, the
// sweep ticking the games due itself.
func localDeployment(dir string, env DeployEnv) (*Deployment, error) {
	dir, err := os.MkdirTemp(dir, "calendar-")
	if err != nil {
		return nil, err
	}
	st, err := boltstore.OpenScratch(filepath.Join(dir, "games.db"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	log := slog.New(slog.DiscardHandler)
	n := &notify.Notifier{Sender: env.Mail, Players: st, Log: log, Now: env.Now}
	svc := service.New(service.Config{Games: env.Games.Engines(), Store: st, Players: st, Keys: env.Keys, Now: env.Now,
		Rand: env.Rand, Log: log, AfterCommit: n.AfterCommit})
	n.Service = svc
	n.Composer = compose.New(compose.Config{Games: env.Games, Service: svc, BaseURL: "https://pbm.example", NoPicture: true})
	return &Deployment{
		Service: svc,
		Sweep: func(ctx context.Context, now time.Time) error {
			if _, err := svc.TickAll(ctx); err != nil {
				return err
			}
			return errors.Join(n.SweepMail(ctx, now, svc.PendingOutbox), n.SendDigests(ctx, now))
		},
		// The sweep runs when the game is due: the in-process notifier
		// sends its mail at each commit.
		Wake: func(ctx context.Context, id string) ([]int64, error) {
			g, err := st.GetGame(ctx, id)
			return []int64{g.WakeAt}, err
		},
		Close: func() { st.Close(); os.RemoveAll(dir) },
	}, nil
}

// run plays the queued events in time order until the game ends, nothing
// is left to happen, or the clock passes end.
func (s *sim) run(end time.Time) error {
	for s.queue.Len() > 0 && !s.over {
		e := heap.Pop(&s.queue).(event)
		if e.at.After(end) {
			break
		}
		s.now = e.at
		if err := s.handle(e); err != nil {
			return fmt.Errorf("at %s: %w", s.now.Format(time.RFC3339), err)
		}
		if err := s.afterEvent(); err != nil {
			return fmt.Errorf("at %s: %w", s.now.Format(time.RFC3339), err)
		}
	}
	return nil
}

// sim is one game being simulated.
type sim struct {
	cfg     Config
	setup   Setup
	ctx     context.Context
	d       *Deployment
	svc     *service.Service // d.Service
	hands   hands            // the people's: d.Look to read, d.Service to act, inside d.Do
	seed    uint64
	rng     *rand.Rand // the start and the organiser's draws; people have their own
	now     time.Time
	queue   events
	seq     int
	id      string
	keys    int // decisions posted: each takes a fresh key
	visits  int
	stale   int // visits whose mail's decisions were made already
	over    bool
	started time.Time // when the last person accepted and play began

	byEmail map[string]int // person (invitation index) by address
	people  []person
	kinds   map[string]int
	organ   int // mails to the organiser
	missed  int
	// missedDeals counts the deal mails nobody answered; prepared the
	// offers people prepared.
	missedDeals, prepared int
	sweeps                map[int64]bool // the times (Unix seconds) a sweep is queued at
	waits                 int
	longest               time.Duration
}

// person is a seat's player as the simulator follows them.
type person struct {
	zone  *time.Location
	habit Habit
	mails int
	// Each person draws from streams of their own, one for the mails
	// that ask a decision (miss or delay) and one for the rest, so that
	// their k-th decision mail is missed or answered alike whatever the
	// others are mailed: games of one seed at two lengths, or under two
	// populations, differ by what they play, not by the luck of the draw
	// (common random numbers).
	decide, other *rand.Rand
	// The wait open for them: since when, and the seat's position then.
	waiting  bool
	since    time.Time
	position int64
}

func (s *sim) clock() time.Time { return s.now }

// organiserZone is the organiser's time zone: Moscow, the first zone.
func (s *sim) organiserZone() *time.Location { return s.cfg.Model.Zones[0] }

// create has the organiser create the game; the mails it sends bring the
// rest: the organiser confirms their address, then each person accepts
// their invitation, each after their own delay (Send).
func (s *sim) create() error {
	req := service.CreateRequest{Kind: s.setup.Kind, Options: s.setup.Options, DeadlineHours: s.setup.DeadlineHours,
		MissesToBot: s.setup.MissesToBot, Organiser: service.Person{Name: "Organiser", Email: "organiser@sim.example"}}
	if req.MissesToBot == 0 {
		req.MissesToBot = SimMissesToBot
	}
	for i := range s.setup.Seats {
		p := service.Person{Name: fmt.Sprintf("Player %d", i+1), Email: fmt.Sprintf("p%d@sim.example", i+1), Lang: "ru"}
		if i%2 == 1 {
			p.Lang = "en"
		}
		req.Seats = append(req.Seats, p)
		s.byEmail[p.Email] = i
		s.people = append(s.people, person{zone: s.cfg.Model.Zones[i%len(s.cfg.Model.Zones)], habit: s.cfg.People.habit(i),
			decide: rand.New(rand.NewPCG(s.seed, streamDecide+uint64(i))), other: rand.New(rand.NewPCG(s.seed, streamOther+uint64(i)))})
	}
	return s.d.Do(s.ctx, DoCreate, func(ctx context.Context) error {
		c, err := s.svc.Create(ctx, req)
		s.id = c.ID
		return err
	})
}

// Send is the simulator's mail: it counts each mail, and a person mailed
// to confirm, to accept or to decide decides when they will follow its
// link (or, for a decision, that they never will).
func (s *sim) Send(_ context.Context, m notify.Message) error {
	kind := m.Tags["mail"]
	s.kinds[kind]++
	p, ok := s.byEmail[m.To]
	if !ok {
		s.organ++
		if kind == service.MailConfirm {
			s.push(event{at: s.answer(s.organiserZone()), what: evConfirm, person: -1})
		}
		return nil
	}
	s.people[p].mails++
	switch {
	case kind == service.MailInvite:
		s.push(event{at: s.answerBy(s.people[p].other, s.people[p].zone), what: evAccept, person: p})
	case decisionMail(kind):
		r := s.people[p].decide
		if r.Float64() < s.cfg.Model.MissRate {
			r.Float64() // the delay it would have had: the next mail draws alike
			s.missed++
			return nil
		}
		pos, err := s.linkPosition(p)
		if err != nil {
			return err
		}
		s.push(event{at: s.answerBy(r, s.people[p].zone), what: evVisit, person: p, position: pos})
	case kind == service.MailDeal:
		// A deal asked of them: answered in person, or never (its
		// deadline declines it). Missing one stalls nobody.
		r := s.people[p].other
		if r.Float64() < s.cfg.Model.MissRate {
			r.Float64()
			s.missedDeals++
			return nil
		}
		s.push(event{at: s.answerBy(r, s.people[p].zone), what: evDeal, person: p, deal: dealOf(m)})
	}
	return nil
}

// dealOf is the deal a deal mail asks about: its id ends the mail's id
// ("<game>/deal-<invite>-<deal>").
func dealOf(m notify.Message) int {
	var inv, id int
	if i := strings.LastIndex(m.ID, "/"); i >= 0 {
		fmt.Sscanf(m.ID[i+1:], service.MailDeal+"-%d-%d", &inv, &id)
	}
	return id
}

// KeyOf is the idempotency key of the n-th decision the people of game
// id post: as a page's form makes them (22 characters, "pg" and 20 hex
// digits of a hash), which compress no better in the game item than
// theirs do.
func KeyOf(id string, n int) string {
	h := sha256.Sum256(fmt.Appendf(nil, "calendar|%s|%d", id, n))
	return "pg" + hex.EncodeToString(h[:10])
}

// answer is when the organiser, in zone, acts on a mail just sent.
func (s *sim) answer(zone *time.Location) time.Time { return s.answerBy(s.rng, zone) }

// answerBy is when someone in zone who has just been mailed acts on it,
// the delay drawn from r.
func (s *sim) answerBy(r *rand.Rand, zone *time.Location) time.Time {
	return s.cfg.Model.Answer(s.now, s.cfg.Model.Delay(r), zone)
}

// The streams of a person's draws (PCG's second word; the person's index
// is added).
const (
	streamDecide = 0x5eed_0001_0000
	streamOther  = 0x5eed_0002_0000
)

// linkPosition is the round of decisions the link of a decision mail to
// person p opens (compose links a decision mail to the seat's position
// of the game it is composed from, the one just committed).
func (s *sim) linkPosition(p int) (int64, error) {
	rec, _, err := s.d.Look.Load(s.ctx, s.id)
	if err != nil {
		return 0, err
	}
	return rec.SeatPosition(rec.Seats[p].Engine), nil
}

// handle runs one event.
func (s *sim) handle(e event) error {
	switch e.what {
	case evSweep:
		return s.d.Do(s.ctx, DoSweep, func(ctx context.Context) error { return s.d.Sweep(ctx, s.now) })
	case evConfirm:
		if err := s.d.Do(s.ctx, DoConfirm, func(ctx context.Context) error { return s.svc.Confirm(ctx, s.id) }); err != nil {
			return fmt.Errorf("confirm: %w", err)
		}
		return nil
	case evAccept:
		return s.d.Do(s.ctx, DoAccept, func(ctx context.Context) error {
			if _, err := s.svc.Accept(ctx, s.id, e.person); err != nil {
				return fmt.Errorf("accept %d: %w", e.person, err)
			}
			return s.people[e.person].habit.apply(ctx, s.svc, s.id, e.person)
		})
	}
	s.visits++
	key := func() string {
		s.keys++
		return KeyOf(s.id, s.keys)
	}
	var acted bool
	var err error
	if e.what == evDeal {
		acted, err = s.hands.answerDeal(s.ctx, s.id, e.person, e.deal, key)
	} else {
		acted, err = s.hands.visitLink(s.ctx, s.id, e.person, e.position, key)
	}
	if err != nil {
		return err
	}
	if !acted {
		s.stale++
	}
	// On their page, whatever it says, a person may prepare an offer.
	if !s.cfg.NoTrade {
		prepared, err := s.hands.prepareOffer(s.ctx, s.id, e.person)
		if prepared {
			s.prepared++
		}
		return err
	}
	return nil
}

// afterEvent brings the waits up to date, notes when play begins and when
// the game ends, and schedules the sweep for when the game next needs the
// clock.
func (s *sim) afterEvent() error {
	rec, _, err := s.d.Look.Load(s.ctx, s.id)
	if err != nil {
		return err
	}
	switch rec.Status {
	case service.StatusOver:
		s.over = true
		return s.closeWaits(rec, nil)
	case service.StatusPlaying:
	default:
		return nil // waiting for the organiser's confirmation or for the acceptances
	}
	if s.started.IsZero() {
		s.started = s.now
	}
	g, err := s.d.Look.Engine(rec)
	if err != nil {
		return err
	}
	if err := s.closeWaits(rec, g.Owing()); err != nil {
		return err
	}
	times, err := s.d.Wake(s.ctx, s.id)
	if err != nil {
		return err
	}
	next := s.now.Truncate(sweepEvery).Add(sweepEvery) // the schedule's next sweep
	for _, w := range times {
		if w <= 0 {
			continue
		}
		at := time.Unix(w, 0).Truncate(sweepEvery)
		if at.Before(time.Unix(w, 0)) {
			at = at.Add(sweepEvery)
		}
		if !at.After(s.now) {
			at = next
		}
		s.sweepAt(at)
	}
	return nil
}

// sweepAt queues a run of the sweep at at, unless one is queued then.
func (s *sim) sweepAt(at time.Time) {
	if s.sweeps == nil {
		s.sweeps = map[int64]bool{}
	}
	// By the instant, whatever the location of at: the sweep runs once
	// at a time.
	if !s.sweeps[at.Unix()] {
		s.sweeps[at.Unix()] = true
		s.push(event{at: at, what: evSweep, person: -1})
	}
}

// closeWaits ends the wait of each person whose seat has acted (or had its
// default played) since it began, or owes nothing now, and opens one for
// each seat that owes a decision now (owing) and is played by no bot.
func (s *sim) closeWaits(rec *service.Record, owing []int) error {
	for i := range s.people {
		p := &s.people[i]
		seat := rec.Seats[i].Engine
		pos := rec.SeatStep(seat) // its commands: a wait ends when the seat acts or its default is played
		// A wait ends when the seat acts — or when the game no longer
		// waits on it without its acting (out of the game: bankrupt,
		// resigned).
		if p.waiting && (pos > p.position || !slices.Contains(owing, seat)) {
			s.closeWait(p)
		}
		if !p.waiting && slices.Contains(owing, seat) && !(seat < len(rec.Bots) && rec.Bots[seat]) {
			p.waiting, p.since, p.position = true, s.now, pos
		}
	}
	return nil
}

func (s *sim) closeWait(p *person) {
	p.waiting = false
	s.waits++
	s.longest = max(s.longest, s.now.Sub(p.since))
}

// result sums up the game: its days count from its creation.
func (s *sim) result(seed uint64, created time.Time) (Result, error) {
	for i := range s.people {
		if s.people[i].waiting {
			s.closeWait(&s.people[i])
		}
	}
	res := Result{Seed: seed, Finished: s.over, Days: s.now.Sub(created).Hours() / 24, Kinds: s.kinds,
		Waits: s.waits, LongestWait: s.longest, Missed: s.missed, StaleVisits: s.stale}
	if !s.started.IsZero() {
		res.StartDays = s.started.Sub(created).Hours() / 24
	}
	for _, p := range s.people {
		res.Mails = append(res.Mails, p.mails)
	}
	rec, version, err := s.d.Look.Load(s.ctx, s.id)
	if err != nil {
		return res, err
	}
	res.Writes, res.OrganiserMails, res.Visits, res.Decisions = int(version), s.organ, s.visits, s.keys
	for _, b := range rec.Bots {
		if b {
			res.Bots++
		}
	}
	res.Moves, res.Prepared = rec.Moves, s.prepared
	res.Turns, err = s.turns(rec, &res)
	return res, err
}

// turns replays the game's log and counts the turns it played (each time
// the turn passes to a seat), and res's deals: offers proposed and
// carried out, purchases kept for later.
func (s *sim) turns(rec *service.Record, res *Result) (int, error) {
	log, err := s.d.Look.FullLog(s.ctx, rec)
	if err != nil {
		return 0, err
	}
	seats := 0
	for _, st := range rec.Seats {
		if st.Engine >= 0 {
			seats++
		}
	}
	g, err := s.cfg.Games.Engines().New(rec.Kind, rec.Rules, rec.Options, seats, [32]byte(rec.Seed))
	if err != nil {
		return 0, err
	}
	n, last := 1, g.Turn()
	for _, e := range log {
		g, _, err = g.Apply(e.Seat, e.Action)
		if err != nil {
			return 0, fmt.Errorf("replay %d: %w", e.N, err)
		}
		for _, ev := range e.Events {
			if ev.Deal == nil {
				continue
			}
			switch hold := ev.Deal.From == engine.Bank; {
			case ev.Type == engine.EvDealOpen && hold:
				res.Holds++
			case ev.Type == engine.EvDealOpen:
				res.Offers++
			case ev.Type == engine.EvDealDone && !hold:
				res.OffersAccepted++
			}
		}
		if !g.Over() && g.Turn() != last {
			n++
			last = g.Turn()
		}
	}
	return n, nil
}

// event is something that happens at a time: a run of the sweep, the
// organiser confirming their address, a person accepting their
// invitation, or a person following a decision mail's link.
type event struct {
	at     time.Time
	seq    int
	what   happening
	person int // the person who acts (−1: the sweep or the organiser)
	// position, of a visit, is the round of decisions the mail's link
	// opens (Record.SeatPosition when it was mailed); deal, of a deal's
	// visit, the deal its mail asks to answer.
	position int64
	deal     int
}

// What an event is.
type happening int

const (
	evVisit happening = iota
	evDeal            // a person following a deal mail's link
	evSweep
	evConfirm
	evAccept
)

func (s *sim) push(e event) {
	s.seq++
	e.seq = s.seq
	heap.Push(&s.queue, e)
}

// events is a queue by time, then by the order events were made.
type events []event

func (q events) Len() int { return len(q) }
func (q events) Less(i, j int) bool {
	if !q[i].at.Equal(q[j].at) {
		return q[i].at.Before(q[j].at)
	}
	return q[i].seq < q[j].seq
}
func (q events) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *events) Push(x any)   { *q = append(*q, x.(event)) }
func (q *events) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}
