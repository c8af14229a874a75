package compose_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// TestMailSaysWhatOrdersPlayed: a seat's turn mail says what its standing
// orders played for it since its player's last move; no other seat's mail
// says anything of them (they are private).
func TestMailSaysWhatOrdersPlayed(t *testing.T) {
	ctx := context.Background()
	f := newGame(t, "western", `{"laps":20}`, 3, func(engine.Game, int) bool { return true })
	// Анна (ru) rolls by order; Bob (en) and Вера have none.
	if err := f.svc.SetOrders(ctx, f.id, 0, engine.Orders{engine.OrderRoll: 1, engine.OrderKeepCash: 7777}); err != nil {
		t.Fatal(err)
	}
	var annas, others []string
	for i := 0; i < 60; i++ {
		rec, ver, err := f.svc.Load(ctx, f.id)
		if err != nil {
			t.Fatal(err)
		}
		var sent []string
		for _, m := range rec.Outbox {
			sent = append(sent, m.ID)
			if m.Kind != service.MailTurn && m.Kind != service.MailDecision {
				continue
			}
			msg, err := f.c.Compose(ctx, rec, ver, m)
			if err != nil {
				continue // an obsolete mail
			}
			if m.Seat == 0 {
				annas = append(annas, msg.Text)
			} else {
				others = append(others, msg.Subject+msg.Text+msg.HTML)
			}
		}
		if err := f.svc.MarkSent(ctx, f.id, sent, nil); err != nil {
			t.Fatal(err)
		}
		g, _ := f.svc.Engine(rec)
		if _, err := f.svc.ActBot(ctx, f.id, g.Owing()[0], fmt.Sprintf("orders-%05d", i)); err != nil {
			t.Fatal(err)
		}
	}
	told := false
	for _, m := range annas {
		told = told || strings.Contains(m, "Сыграно по вашему приказу")
	}
	if len(annas) == 0 || !told {
		t.Fatalf("Анна's %d mails never say what her orders played", len(annas))
	}
	for _, m := range others {
		// Each seat's first decision mail says what its own orders play
		// (none, here): never what Анна's did.
		for _, secret := range []string{"по вашему приказу", "your standing order", "7777", "7 777"} {
			if strings.Contains(m, secret) {
				t.Fatalf("another seat's mail speaks of Анна's orders (%q): %.400s", secret, m)
			}
		}
	}
}

// TestFirstDecisionMailSaysTheOrders: a seat starts with its game's
// suggested standing orders, and its invitation and first decision mail
// say in a line what they play, with the link that changes or turns them
// off; its later decision mails do not repeat it.
func TestFirstDecisionMailSaysTheOrders(t *testing.T) {
	ctx := context.Background()
	f := newGame(t, "western", `{"laps":3}`, 3, func(engine.Game, int) bool { return true })
	// The fixture turns the orders off: Анна takes the suggested ones,
	// as a seat that touched nothing has them.
	rec, _, _ := f.svc.Load(ctx, f.id)
	specs, _ := f.svc.OrderSpecs(rec)
	if err := f.svc.SetOrders(ctx, f.id, 0, engine.SensibleOrders(specs)); err != nil {
		t.Fatal(err)
	}
	var annas []string
	for i := 0; i < 400 && len(annas) < 2; i++ {
		rec, ver, err := f.svc.Load(ctx, f.id)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Status != service.StatusPlaying {
			break
		}
		var sent []string
		for _, m := range rec.Outbox {
			sent = append(sent, m.ID)
			if m.Seat != 0 || (m.Kind != service.MailTurn && m.Kind != service.MailDecision) {
				continue
			}
			if msg, err := f.c.Compose(ctx, rec, ver, m); err == nil {
				annas = append(annas, msg.Text)
			}
		}
		if err := f.svc.MarkSent(ctx, f.id, sent, nil); err != nil {
			t.Fatal(err)
		}
		g, _ := f.svc.Engine(rec)
		if _, err := f.svc.ActBot(ctx, f.id, g.Owing()[0], fmt.Sprintf("first-%05d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if len(annas) < 2 {
		t.Fatalf("Анна got %d decision mails", len(annas))
	}
	if !strings.Contains(annas[0], "За вас сразу играют приказы:") || !strings.Contains(annas[0], "бросок кубика") ||
		!strings.Contains(annas[0], "/g/"+f.id+"/orders") {
		t.Errorf("Анна's first decision mail does not say what her orders play:\n%s", annas[0])
	}
	if strings.Contains(annas[1], "За вас сразу играют приказы:") {
		t.Errorf("Анна's second decision mail repeats her orders:\n%s", annas[1])
	}
}
