// Package conformance is a test helper: Run holds any game's registry
// entry (engine.Def) to what the service asks of every game, through the
// generic interfaces only (engine.Game, engine.Standing, engine.Dealing),
// so that a new game, or a change of the shared scaffolding, is met by
// the same checks whatever its rules. It imports "testing" and the
// engine only, and only tests import it.
//
// The checks, each a subtest of Run:
//
//   - info: the entry's kind, names and seat limits are sound; its
//     mail options (Info.Defaults) read.
//   - options: Complete(nil) and Complete(Info.Defaults) write out options
//     New accepts, Complete is idempotent, an unknown option is refused
//     (engine.ErrBadOptions), so are seat counts outside [MinSeats,
//     MaxSeats]; an unknown rules version is refused (engine.ErrUnknownRules).
//   - new: at every seat count, with no options and with the mail ones,
//     New makes a game of that kind and seat count that is not over and
//     that someone owes a decision in; the same seed makes the same game.
//   - bots: seeded games, at every seat count and with both options, played
//     by the engine's own bots, end within MaxActions; every step is
//     checked (see step) and the finished game is checked (see over).
//   - random: seeded games whose seats pick any legal choice but resign
//     (an amount anywhere in its range), for a bounded number of steps,
//     each step checked alike; standing orders (Standing) are asked at
//     every step, with the sensible values and with all set to their
//     minimum and to their maximum (values engine.CheckOrders accepts),
//     and must give a legal action and change nothing.
//   - replay: the log of each of those games replays from its seed to the
//     same stored state (P-1); the stored state loads back (Def.Load) to
//     a game whose stored state is the same, and which plays on alike.
//   - end: the organiser's End (engine.End) ends a new game at every seat
//     count with the shared game-over event last; a second End is refused.
//   - resign: at every seat count, the first owing seat may resign when
//     its choices offer it, and the game then ends or someone owes.
//   - load: a stored form of an unknown format, and an unknown rules
//     version, are refused.
//
// A step: each owing seat has choices, the same when asked again; a
// seat that owes nothing has none; Default and Bot give one of the seat's own choices, and the
// choice marked Default admits Default's action; Secret answers for every
// choice; each seat's View (and the spectator's) is made and marshals;
// Apply of the bot's (or picked) action succeeds, leaves its receiver
// unchanged, and a game over ends its events with game_over.
//
// Over: nobody owes, no seat has choices, Default and Bot give none, any
// action is refused with engine.ErrGameOver, and Score ranks every seat
// once with places 1…n.
package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// MaxActions bounds a bot game: a game the bots do not end within it
// fails. It is far above a game by mail of the real games.
var MaxActions = 100_000

// RandomSteps is how many steps a game of random choices is played.
var RandomSteps = 1_500

// Seeds is how many seeded games are played per seat count and options.
var Seeds = 3

// GameOver is the type of every game's last event (the pages and mails
// read it by that name: functions/internal/present).
const GameOver = engine.EvGameOver

// Run holds d to the contract of every game; see the package doc.
func Run(t *testing.T, d engine.Def) {
	t.Run("info", func(t *testing.T) { checkInfo(t, d) })
	t.Run("options", func(t *testing.T) { checkOptions(t, d) })
	t.Run("new", func(t *testing.T) { checkNew(t, d) })
	t.Run("bots", func(t *testing.T) {
		forGames(t, d, func(t *testing.T, seats int, opts json.RawMessage, seed [32]byte) {
			g := newGame(t, d, opts, seats, seed)
			log := play(t, d, g, seats, opts, seed, botPick, MaxActions, true)
			_ = log
		})
	})
	t.Run("random", func(t *testing.T) {
		forGames(t, d, func(t *testing.T, seats int, opts json.RawMessage, seed [32]byte) {
			rng := rand.New(rand.NewPCG(uint64(seed[0]), uint64(seats)))
			g := newGame(t, d, opts, seats, seed)
			play(t, d, g, seats, opts, seed, randomPick(rng), RandomSteps, false)
		})
	})
	t.Run("end", func(t *testing.T) { checkEnd(t, d) })
	t.Run("resign", func(t *testing.T) { checkResign(t, d) })
	t.Run("load", func(t *testing.T) { checkLoad(t, d) })
}

// seatCounts lists every seat count the game takes.
func seatCounts(d engine.Def) []int {
	var out []int
	for n := d.Info.MinSeats; n <= d.Info.MaxSeats; n++ {
		out = append(out, n)
	}
	return out
}

// optionSets are the options every game is played with: none (the
// engine's defaults) and the mail ones (Info.Defaults).
func optionSets(d engine.Def) map[string]json.RawMessage {
	return map[string]json.RawMessage{"defaults": nil, "mail": d.Info.Defaults()}
}

// forGames runs f for every seat count, options and seed, each a subtest.
func forGames(t *testing.T, d engine.Def, f func(t *testing.T, seats int, opts json.RawMessage, seed [32]byte)) {
	for _, n := range seatCounts(d) {
		for _, name := range []string{"defaults", "mail"} {
			opts := optionSets(d)[name]
			for i := range Seeds {
				seed := seedOf(d.Info.Kind, n, i)
				t.Run(fmt.Sprintf("%d-seats/%s/seed-%d", n, name, i), func(t *testing.T) { f(t, n, opts, seed) })
			}
		}
	}
}

func seedOf(kind string, seats, i int) [32]byte {
	var seed [32]byte
	copy(seed[:], fmt.Sprintf("conformance %s %d %d", kind, seats, i))
	return seed
}

func newGame(t *testing.T, d engine.Def, opts json.RawMessage, seats int, seed [32]byte) engine.Game {
	t.Helper()
	g, err := d.New(d.CurrentRules(), opts, seats, seed)
	if err != nil {
		t.Fatalf("New(%s, %d seats): %v", opts, seats, err)
	}
	return g
}

func checkInfo(t *testing.T, d engine.Def) {
	i := d.Info
	if i.Kind == "" || i.RU == "" || i.EN == "" {
		t.Errorf("info %+v: a kind and both names are needed", i)
	}
	if i.MinSeats < 1 || i.MaxSeats < i.MinSeats {
		t.Errorf("seats %d–%d", i.MinSeats, i.MaxSeats)
	}
	if d.New == nil || d.Load == nil || d.CurrentRules == nil || d.Complete == nil || d.Secret == nil || i.Defaults == nil {
		t.Fatal("the entry has a missing function")
	}
	var m map[string]any
	if err := json.Unmarshal(i.Defaults(), &m); err != nil {
		t.Errorf("mail options %s: %v", i.Defaults(), err)
	}
}

func checkOptions(t *testing.T, d engine.Def) {
	full, err := d.Complete(nil)
	if err != nil {
		t.Fatalf("Complete(nil): %v", err)
	}
	again, err := d.Complete(full)
	if err != nil || !bytes.Equal(again, full) {
		t.Errorf("Complete is not idempotent: %s then %s (%v)", full, again, err)
	}
	mail, err := d.Complete(d.Info.Defaults())
	if err != nil || !bytes.Equal(mail, full) {
		t.Errorf("Complete(Info.Defaults) = %s (%v), Complete(nil) = %s", mail, err, full)
	}
	var seed [32]byte
	rules := d.CurrentRules()
	for _, n := range seatCounts(d) {
		if _, err := d.New(rules, full, n, seed); err != nil {
			t.Errorf("New refuses Complete(nil)'s options %s at %d seats: %v", full, n, err)
		}
	}
	if _, err := d.Complete(json.RawMessage(`{"conformance_no_such_option":1}`)); !errors.Is(err, engine.ErrBadOptions) {
		t.Errorf("an unknown option: %v, want ErrBadOptions", err)
	}
	if _, err := d.New(rules, json.RawMessage(`{"conformance_no_such_option":1}`), d.Info.MinSeats, seed); !errors.Is(err, engine.ErrBadOptions) {
		t.Errorf("New with an unknown option: %v, want ErrBadOptions", err)
	}
	for _, n := range []int{d.Info.MinSeats - 1, d.Info.MaxSeats + 1} {
		if _, err := d.New(rules, nil, n, seed); !errors.Is(err, engine.ErrBadOptions) {
			t.Errorf("New at %d seats: %v, want ErrBadOptions", n, err)
		}
	}
	if _, err := d.New(-1, nil, d.Info.MinSeats, seed); !errors.Is(err, engine.ErrUnknownRules) {
		t.Errorf("New under rules -1: %v, want ErrUnknownRules", err)
	}
}

func checkNew(t *testing.T, d engine.Def) {
	for _, n := range seatCounts(d) {
		for name, opts := range optionSets(d) {
			seed := seedOf(d.Info.Kind, n, 99)
			g := newGame(t, d, opts, n, seed)
			if g.Kind() != d.Info.Kind || g.Seats() != n || g.Over() || len(g.Owing()) == 0 {
				t.Errorf("%d seats, %s: made %s, %d seats, over %v, owing %v", n, name, g.Kind(), g.Seats(), g.Over(), g.Owing())
			}
			if turn := g.Turn(); turn < 0 || turn >= n {
				t.Errorf("%d seats, %s: turn %d", n, name, turn)
			}
			if twin := newGame(t, d, opts, n, seed); !bytes.Equal(stored(t, g), stored(t, twin)) {
				t.Errorf("%d seats, %s: the same seed makes another game", n, name)
			}
		}
	}
}

// picker chooses the action seat plays: ok false to stop the game.
type picker func(t *testing.T, g engine.Game, seat engine.Seat, legal []engine.Choice) engine.Action

func botPick(t *testing.T, g engine.Game, seat engine.Seat, legal []engine.Choice) engine.Action {
	t.Helper()
	a, ok := g.Bot(seat)
	if !ok {
		t.Fatalf("seat %d owes but its bot gives nothing", seat)
	}
	return a
}

// RandomChoice picks from legal as a person might: any choice but
// resigning (which would end most games at once), an amount anywhere in
// its range, on its step.
func RandomChoice(rng *rand.Rand, legal []engine.Choice) engine.Action {
	pool := slices.DeleteFunc(slices.Clone(legal), func(c engine.Choice) bool { return c.Type == engine.Resign })
	if len(pool) == 0 {
		pool = legal
	}
	c := pool[rng.IntN(len(pool))]
	a := c.Action
	if c.Ranged() {
		a.Amount = c.Min + rng.Int64N((c.Max-c.Min)/c.Step+1)*c.Step
	}
	return a
}

// randomPick picks as a person might: any choice but resigning, an
// amount anywhere in its range, on its step.
func randomPick(rng *rand.Rand) picker {
	return func(t *testing.T, g engine.Game, seat engine.Seat, legal []engine.Choice) engine.Action {
		return RandomChoice(rng, legal)
	}
}

// sample tells whether step gets the costlier checks (views, stored
// form, the receiver unchanged): the first steps, then one in seven.
func sample(step int) bool { return step < 50 || step%7 == 0 }

// play plays g with pick for up to limit steps, checking each, then
// checks the replay of its log and its stored form; mustEnd fails a game
// not over by then.
func play(t *testing.T, d engine.Def, g engine.Game, seats int, opts json.RawMessage, seed [32]byte, pick picker, limit int, mustEnd bool) []engine.Command {
	var log []engine.Command
	for step := 0; step < limit && !g.Over(); step++ {
		owing := g.Owing()
		checkStep(t, d, g, step, owing)
		seat := owing[step%len(owing)]
		legal := g.Legal(seat)
		a := pick(t, g, seat, legal)
		if engine.Find(legal, a) < 0 {
			t.Fatalf("step %d: seat %d plays %v, not among its choices %v", step, seat, a, legal)
		}
		var before []byte
		if sample(step) {
			before = stored(t, g)
		}
		next, ev, err := g.Apply(seat, a)
		if err != nil {
			t.Fatalf("step %d: seat %d %v refused: %v", step, seat, a, err)
		}
		if before != nil && !bytes.Equal(before, stored(t, g)) {
			t.Fatalf("step %d: Apply changed its receiver", step)
		}
		checkEvents(t, step, next, ev, seats)
		log = append(log, engine.Command{Seat: seat, Action: a})
		g = next
	}
	if mustEnd && !g.Over() {
		t.Fatalf("not over after %d actions", len(log))
	}
	if g.Over() {
		checkOver(t, g)
	}
	checkReplay(t, d, g, opts, seats, seed, log)
	return log
}

// checkStep holds one position of a game in play.
func checkStep(t *testing.T, d engine.Def, g engine.Game, step int, owing []engine.Seat) {
	n := g.Seats()
	if len(owing) == 0 {
		t.Fatalf("step %d: the game is not over and nobody owes", step)
	}
	if !slices.IsSorted(owing) || len(slices.Compact(slices.Clone(owing))) != len(owing) {
		t.Fatalf("step %d: owing %v is not in seat order", step, owing)
	}
	for seat := range n {
		legal := g.Legal(seat)
		if !slices.Contains(owing, seat) {
			if len(legal) > 0 {
				t.Fatalf("step %d: seat %d owes nothing but has choices %v", step, seat, legal)
			}
			continue
		}
		if owing[0] < 0 || owing[len(owing)-1] >= n {
			t.Fatalf("step %d: owing %v outside the seats", step, owing)
		}
		if len(legal) == 0 {
			t.Fatalf("step %d: seat %d owes but has no choices", step, seat)
		}
		if again := g.Legal(seat); !slices.EqualFunc(legal, again, func(a, b engine.Choice) bool { return a == b }) {
			t.Fatalf("step %d: seat %d's choices change when asked again: %v, then %v", step, seat, legal, again)
		}
		def, ok := g.Default(seat)
		if !ok || engine.Find(legal, def) < 0 {
			t.Fatalf("step %d: seat %d's default %v (%v) is not among its choices %v", step, seat, def, ok, legal)
		}
		for _, c := range legal {
			if c.Default && !c.Admits(def) {
				t.Fatalf("step %d: seat %d: the choice marked default %+v does not admit Default's %v", step, seat, c, def)
			}
			_ = d.Secret(c.Action)
		}
		if a, ok := g.Bot(seat); !ok || engine.Find(legal, a) < 0 {
			t.Fatalf("step %d: seat %d's bot plays %v (%v), not among its choices %v", step, seat, a, ok, legal)
		}
		checkOrders(t, g, step, seat, legal)
	}
	checkDeals(t, g, step)
	if sample(step) {
		checkViews(t, g, step)
	}
}

// checkOrders: standing orders, when the game takes them, play one of
// the seat's choices and change nothing.
func checkOrders(t *testing.T, g engine.Game, step int, seat engine.Seat, legal []engine.Choice) {
	st, ok := g.(engine.Standing)
	if !ok {
		return
	}
	specs := st.OrderSpecs()
	low, high := engine.Orders{}, engine.Orders{}
	for _, s := range specs {
		low[s.Name], high[s.Name] = s.Min, s.Max
		if s.Kind == engine.OrderFlag {
			low[s.Name], high[s.Name] = 0, 1
		}
	}
	for _, o := range []engine.Orders{engine.SensibleOrders(specs), low, high} {
		if err := engine.CheckOrders(specs, o); err != nil {
			t.Fatalf("the game's own orders are refused: %v", err)
		}
		var before []byte
		if sample(step) {
			before = stored(t, g)
		}
		a, ok := st.ByOrders(seat, o)
		if ok && engine.Find(legal, a) < 0 {
			t.Fatalf("step %d: seat %d's orders %v play %v, not among its choices %v", step, seat, o, a, legal)
		}
		if before != nil && !bytes.Equal(before, stored(t, g)) {
			t.Fatalf("step %d: asking seat %d's orders changed the game", step, seat)
		}
	}
}

// checkDeals: a game's open deals, when it has them, are answered by its
// bots with one of the deal's two answers.
func checkDeals(t *testing.T, g engine.Game, step int) {
	dl, ok := g.(engine.Dealing)
	if !ok {
		return
	}
	for _, deal := range dl.Deals() {
		if deal.To < 0 || deal.To >= g.Seats() {
			t.Fatalf("step %d: deal %+v is open to no seat", step, deal)
		}
		a, ok := dl.DealAnswer(deal, nil, true)
		if ok && a != (engine.Action{Type: engine.AcceptDeal, Deal: deal.ID}) && a != engine.DealDefault(deal) {
			t.Fatalf("step %d: the bot answers deal %+v with %v", step, deal, a)
		}
	}
}

// checkViews: every seat's view and the spectator's are made and marshal.
func checkViews(t *testing.T, g engine.Game, step int) {
	for seat := engine.Spectator; seat < g.Seats(); seat++ {
		v := g.View(seat)
		if v == nil {
			t.Fatalf("step %d: seat %d has no view", step, seat)
		}
		if _, err := json.Marshal(v); err != nil {
			t.Fatalf("step %d: seat %d's view does not marshal: %v", step, seat, err)
		}
	}
}

// checkEvents: an action's events name seats of the game (or none), and
// the move that ends a game ends its events with game_over.
func checkEvents(t *testing.T, step int, g engine.Game, ev []engine.Event, seats int) {
	for i, e := range ev {
		if e.Type == "" || e.Seat < -1 || e.Seat >= seats {
			t.Fatalf("step %d: event %+v", step, e)
		}
		if e.Type == GameOver && i != len(ev)-1 {
			t.Fatalf("step %d: events after game_over: %+v", step, ev[i+1:])
		}
	}
	if g.Over() && (len(ev) == 0 || ev[len(ev)-1].Type != GameOver) {
		t.Fatalf("step %d: the game ended without a last game_over event: %+v", step, ev)
	}
}

// checkOver holds a finished game.
func checkOver(t *testing.T, g engine.Game) {
	if len(g.Owing()) != 0 {
		t.Errorf("over, yet %v owe", g.Owing())
	}
	for seat := range g.Seats() {
		if l := g.Legal(seat); len(l) != 0 {
			t.Errorf("over, yet seat %d has choices %v", seat, l)
		}
		if a, ok := g.Default(seat); ok {
			t.Errorf("over, yet seat %d's default is %v", seat, a)
		}
		if a, ok := g.Bot(seat); ok {
			t.Errorf("over, yet seat %d's bot plays %v", seat, a)
		}
		if _, _, err := g.Apply(seat, engine.Action{Type: engine.Resign}); !errors.Is(err, engine.ErrGameOver) {
			t.Errorf("over, yet seat %d's resign gives %v", seat, err)
		}
	}
	checkScore(t, g)
	checkViews(t, g, -1)
}

// checkScore: every seat once, in seat order, with places 1…n.
func checkScore(t *testing.T, g engine.Game) {
	sc := g.Score()
	if len(sc) != g.Seats() {
		t.Fatalf("%d scores of %d seats", len(sc), g.Seats())
	}
	places := make([]int, len(sc))
	for i, s := range sc {
		if s.Seat != i {
			t.Errorf("score %d is of seat %d", i, s.Seat)
		}
		places[i] = s.Place
		var parts int64
		for _, v := range s.Parts {
			parts += v
		}
		if s.Parts != nil && parts != s.NetWorth {
			t.Errorf("seat %d: parts %v add up to %d, net worth %d", i, s.Parts, parts, s.NetWorth)
		}
	}
	slices.Sort(places)
	for i, p := range places {
		if p != i+1 {
			t.Fatalf("places %v are not 1…%d", places, len(sc))
		}
	}
}

// checkReplay: the log replays from the seed to the same stored state,
// and the stored state loads back to an equal game that plays on alike.
func checkReplay(t *testing.T, d engine.Def, g engine.Game, opts json.RawMessage, seats int, seed [32]byte, log []engine.Command) {
	want := stored(t, g)
	r := newGame(t, d, opts, seats, seed)
	for i, c := range log {
		var err error
		if r, _, err = r.Apply(c.Seat, c.Action); err != nil {
			t.Fatalf("replay command %d %v: %v", i, c, err)
		}
	}
	if got := stored(t, r); !bytes.Equal(got, want) {
		t.Fatalf("the log of %d commands replays to another state", len(log))
	}
	loaded, err := d.Load(d.CurrentRules(), want)
	if err != nil {
		t.Fatalf("the stored state does not load: %v", err)
	}
	if got := stored(t, loaded); !bytes.Equal(got, want) {
		t.Fatal("the stored state loads to another state")
	}
	if g.Over() != loaded.Over() || g.Turn() != loaded.Turn() || !slices.Equal(g.Owing(), loaded.Owing()) {
		t.Fatal("the loaded game differs from the played one")
	}
	// It plays on alike: the next move of both gives the same state and events.
	if !g.Over() {
		seat := g.Owing()[0]
		a, _ := g.Bot(seat)
		n1, ev1, err1 := g.Apply(seat, a)
		n2, ev2, err2 := loaded.Apply(seat, a)
		if err1 != nil || err2 != nil {
			t.Fatalf("the next move: %v, loaded: %v", err1, err2)
		}
		if !bytes.Equal(stored(t, n1), stored(t, n2)) || !bytes.Equal(mustJSON(t, ev1), mustJSON(t, ev2)) {
			t.Fatal("the loaded game plays on otherwise than the played one")
		}
	}
}

func checkEnd(t *testing.T, d engine.Def) {
	for _, n := range seatCounts(d) {
		g := newGame(t, d, nil, n, seedOf(d.Info.Kind, n, 7))
		end := engine.Action{Type: engine.End}
		if _, _, err := g.Apply(0, end); err == nil {
			t.Errorf("%d seats: a seat gave the organiser's End", n)
		}
		over, ev, err := g.Apply(engine.Organiser, end)
		if err != nil {
			t.Fatalf("%d seats: End: %v", n, err)
		}
		if !over.Over() || len(ev) == 0 || ev[len(ev)-1].Type != GameOver || ev[len(ev)-1].Other != engine.OverEnded {
			t.Errorf("%d seats: End gives over %v, events %+v", n, over.Over(), ev)
		}
		checkOver(t, over)
		if _, _, err := over.Apply(engine.Organiser, end); !errors.Is(err, engine.ErrGameOver) {
			t.Errorf("%d seats: a second End: %v", n, err)
		}
	}
}

func checkResign(t *testing.T, d engine.Def) {
	for _, n := range seatCounts(d) {
		g := newGame(t, d, nil, n, seedOf(d.Info.Kind, n, 8))
		seat := g.Owing()[0]
		resign := engine.Action{Type: engine.Resign}
		if engine.Find(g.Legal(seat), resign) < 0 {
			continue // a game may not offer it at its first decision
		}
		next, ev, err := g.Apply(seat, resign)
		if err != nil {
			t.Fatalf("%d seats: seat %d resigns: %v", n, seat, err)
		}
		checkEvents(t, 0, next, ev, n)
		if next.Over() {
			checkOver(t, next)
			if sc := next.Score(); !sc[seat].Bankrupt || sc[seat].Place != n {
				t.Errorf("%d seats: the seat that resigned scores %+v", n, sc[seat])
			}
		} else if len(next.Owing()) == 0 {
			t.Errorf("%d seats: after a resignation nobody owes", n)
		}
	}
}

func checkLoad(t *testing.T, d engine.Def) {
	g := newGame(t, d, nil, d.Info.MinSeats, seedOf(d.Info.Kind, 0, 0))
	state := stored(t, g)
	if _, err := d.Load(-1, state); !errors.Is(err, engine.ErrUnknownRules) {
		t.Errorf("Load under rules -1: %v, want ErrUnknownRules", err)
	}
	if _, err := d.Load(d.CurrentRules(), []byte(`{"v":99}`)); err == nil {
		t.Error("a state of an unknown format loaded")
	}
	if _, err := d.Load(d.CurrentRules(), []byte(`not json`)); err == nil {
		t.Error("a state that is not JSON loaded")
	}
}

func stored(t *testing.T, g engine.Game) []byte {
	t.Helper()
	b, err := g.MarshalJSON()
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return b
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
