package service_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
)

// Issue 25: abuse and bad input on the surfaces issues 14–17 added.

// TestImportEveryCommand (symptom 2): the record of a game the organiser
// ended, with orders, a bot and a missed deadline in its log, imports as
// a finished game (it panicked on the organiser's seat −2: 500).
func TestImportEveryCommand(t *testing.T) {
	for _, f := range []struct{ kind, options string }{{"western", `{"laps":5}`}, {"businessman", `{"laps":10}`}} {
		t.Run(f.kind, func(t *testing.T) {
			ctx := context.Background()
			g := newSeededGame(t, f.kind, f.options, 3)
			servicetest.EveryCommand(t, g.svc, g.now, g.id)
			rec := g.load(t)
			log, err := g.svc.FullLog(ctx, rec)
			if err != nil {
				t.Fatal(err)
			}
			by := map[string]int{}
			for _, e := range log {
				by[fmt.Sprintf("%s/%d", e.By, min(e.Seat, 0))]++
			}
			for _, want := range []string{"/0", service.ByOrder + "/0", service.ByBot + "/0", service.ByDeadline + "/0", service.ByOrganiser + "/-2"} {
				if by[want] == 0 {
					t.Fatalf("the log has no command %q: %v", want, by)
				}
			}
			doc, err := g.svc.GameRecord(ctx, rec)
			if err != nil {
				t.Fatal(err)
			}
			imported := func() (out service.Imported, err error) {
				defer func() {
					if p := recover(); p != nil {
						err = fmt.Errorf("panic: %v", p)
					}
				}()
				return g.svc.Import(ctx, doc, "203.0.113.5")
			}
			out, err := imported()
			if err != nil {
				t.Fatalf("import the record of a game its organiser ended: %v", err)
			}
			back, _, err := g.svc.Load(ctx, out.ID)
			if err != nil {
				t.Fatal(err)
			}
			if back.Status != service.StatusOver || back.Moves != len(doc.Commands) {
				t.Fatalf("imported: status %s, %d moves; want over, %d", back.Status, back.Moves, len(doc.Commands))
			}
		})
	}
}

