package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestSweepHandsOutFreshTicksStale: in AWS's wiring the sweep hands the
// games due for less than service.HandOutFor to the stream's notifier, a
// tick request each, and writes none of them; a game due for longer (the
// stream did not tick it, or no sweep ran) it ticks itself. Either way
// each reminder is committed once.
func TestSweepHandsOutFreshTicksStale(t *testing.T) {
	if testing.Short() {
		t.Skip("games on dynalite: skipped in -short runs")
	}
	const perGroup = 12
	clk := &clock{}
	endpoint := testenv.Dynalite(t)
	app, ds, table := wiredApp(t, testenv.DynamoClient(t, endpoint), clk, &countingSender{sent: map[string]int{}})
	stream := newTickStream(testenv.DynamoClient(t, endpoint), table)
	makeGroup := func(name string) []string {
		var ids []string
		for i := range perGroup {
			c := servicetest.Create(t, app.Service, service.CreateRequest{Kind: "western", DeadlineHours: 4,
				Organiser: service.Person{Email: fmt.Sprintf("o-%s%d@pbm.test", name, i)},
				Seats:     []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}}})
			for s := range 2 {
				if _, err := app.Service.Accept(t.Context(), c.ID, s); err != nil {
					t.Fatal(err)
				}
			}
			if err := app.Notifier.Drain(t.Context(), c.ID); err != nil { // the invitations, as the stream mails them
				t.Fatal(err)
			}
			ids = append(ids, c.ID)
		}
		return ids
	}
	stale := makeGroup("stale") // made at 9:00: reminded at 12:00
	clk.unix.Add(10 * 60)
	fresh := makeGroup("fresh") // made at 9:10: reminded at 12:10
	versions := map[string]int64{}
	for _, id := range append(slices.Clone(stale), fresh...) {
		g, err := ds.GetGame(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		versions[id] = g.Version
	}

	clk.unix.Add(3 * 3600) // 12:10: the stale group's reminders due for 10 minutes, the fresh group's now
	if err := app.Sweep(t.Context(), clk.now()); err != nil {
		t.Fatal(err)
	}
	recs := stream.requests(t)
	var handed []string
	for _, r := range recs {
		handed = append(handed, strings.TrimPrefix(r.Change.Keys["pk"].String(), "GAME#"))
	}
	slices.Sort(handed)
	if want := slices.Sorted(slices.Values(fresh)); !slices.Equal(handed, want) {
		t.Errorf("the sweep handed out %v, want the fresh group %v", handed, want)
	}
	reminders := func(id string) (int, int64) { return pendingReminders(t, app.Service, id) }
	for _, id := range stale {
		if n, ver := reminders(id); n != 1 || ver != versions[id]+1 {
			t.Errorf("stale game %s after the sweep: %d reminders, version %d; want 1, version %d (ticked by the sweep)", id, n, ver, versions[id]+1)
		}
	}
	for _, id := range fresh {
		if n, ver := reminders(id); n != 0 || ver != versions[id] {
			t.Errorf("fresh game %s after the sweep: %d reminders, version %d; want none, version %d (handed out)", id, n, ver, versions[id])
		}
	}
	stream.deliver(t, app, recs, 4)
	for _, id := range fresh {
		if n, ver := reminders(id); n != 1 || ver != versions[id]+1 {
			t.Errorf("fresh game %s after the notifier: %d reminders, version %d; want 1, version %d", id, n, ver, versions[id]+1)
		}
	}
	// A sweep a minute later finds nothing due: the reminders moved
	// every game's wake on to its deadline.
	clk.unix.Add(60)
	if err := app.Sweep(t.Context(), clk.now()); err != nil {
		t.Fatal(err)
	}
	if again := stream.requests(t); len(again) != 0 {
		t.Errorf("a sweep a minute later handed out %d games", len(again))
	}
}

// pendingReminders is how many reminders the game id holds unsent, and
// its version.
func pendingReminders(t *testing.T, svc *service.Service, id string) (int, int64) {
	t.Helper()
	rec, ver, err := svc.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range rec.Outbox {
		if m.Kind == service.MailReminder {
			n++
		}
	}
	return n, ver
}
