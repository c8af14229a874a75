package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store/boltstore"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestPreview serves games at every stage for looking at the pages in a
// browser: PBM_PREVIEW=127.0.0.1:18201 go test -run Preview ./functions/internal/httpapi
// (PBM_PREVIEW_KIND=businessman for «Бизнесмен»)
// prints their links and serves until PBM_PREVIEW_FOR (a duration, 10m
// by default) has passed. Without PBM_PREVIEW it is skipped.
func TestPreview(t *testing.T) {
	addr := os.Getenv("PBM_PREVIEW")
	if addr == "" {
		t.Skip("set PBM_PREVIEW=host:port to serve the preview")
	}
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "preview.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	keys, err := linksign.NewKeyring("k1", map[string][]byte{"k1": make([]byte, 32)})
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Players: st, Keys: keys, Log: quiet, Rand: testenv.Rand(t.Name())})
	ctx := context.Background()
	base := "http://" + addr
	link := func(p linksign.Purpose, path, id string, seat int, l string) string {
		tok, err := svc.Token(p, id, seat, 0, time.Hour*24)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%s%s?lang=%s&t=%s", base, path, l, tok)
	}
	names := []string{"Анна Каренина", "Bob O'Neil", "Владимир", "Григорий Распутин-Новых", "Дмитрий", "Елена"}
	kind := os.Getenv("PBM_PREVIEW_KIND")
	if kind == "" {
		kind = "western"
	}
	create := func(seats, laps int) service.Created {
		req := service.CreateRequest{Kind: kind, Organiser: service.Person{Name: "Org", Email: "org@example.org", Lang: "ru"}}
		req.Options, _ = json.Marshal(map[string]any{"laps": laps})
		for i := range seats {
			req.Seats = append(req.Seats, service.Person{Name: names[i], Email: fmt.Sprintf("p%d@example.org", i), Lang: "ru"})
		}
		c, err := svc.Create(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		servicetest.Confirm(t, svc, c.ID)
		return c
	}
	play := func(c service.Created, seats int, until func(n int, legal int) bool) {
		for i := range seats {
			if _, err := svc.Accept(ctx, c.ID, i); err != nil {
				t.Fatal(err)
			}
		}
		for n := 0; ; n++ {
			rec, _, err := svc.Load(ctx, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			g, err := svc.Engine(rec)
			if err != nil {
				t.Fatal(err)
			}
			if g.Over() {
				return
			}
			seat := g.Owing()[0]
			if until(n, len(g.Legal(seat))) {
				return
			}
			inv := -1
			for i, s := range rec.Seats {
				if s.Engine == seat {
					inv = i
				}
			}
			if _, err := svc.ActBot(ctx, c.ID, inv, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	lateN := 900
	if kind == businessman.Name {
		lateN = 200 // its bots' games are shorter
	}
	late := create(6, 8)
	play(late, 6, func(n, legal int) bool { return n > lateN && legal >= 20 })
	mid := create(4, 8)
	play(mid, 4, func(n, _ int) bool { return n > 120 })
	over := create(3, 3)
	play(over, 3, func(int, int) bool { return false })
	// A decision out of turn: an auction in «Вестерн», a deal offered in
	// «Бизнесмен».
	auction := create(3, 8)
	play(auction, 3, func(n, legal int) bool {
		rec, _, _ := svc.Load(ctx, auction.ID)
		g, _ := svc.Engine(rec)
		switch v := g.View(-1).(type) {
		case western.View:
			return v.Phase == western.PhAuction && legal > 2
		case businessman.View:
			return v.Phase == businessman.PhOffer
		}
		return true
	})
	invited := create(3, 20)
	if _, err := svc.Accept(ctx, invited.ID, 1); err != nil {
		t.Fatal(err)
	}

	owing := func(c service.Created) int {
		rec, _, _ := svc.Load(ctx, c.ID)
		g, _ := svc.Engine(rec)
		if len(g.Owing()) == 0 {
			return 0
		}
		for i, s := range rec.Seats {
			if s.Engine == g.Owing()[0] {
				return i
			}
		}
		return 0
	}
	for _, l := range []string{"ru", "en"} {
		fmt.Printf("late seat (%s): %s\n", l, link(linksign.PurposeSeat, "/g/"+late.ID, late.ID, owing(late), l))
		fmt.Printf("mid seat (%s): %s\n", l, link(linksign.PurposeSeat, "/g/"+mid.ID, mid.ID, owing(mid), l))
		fmt.Printf("mid waiting seat (%s): %s\n", l, link(linksign.PurposeSeat, "/g/"+mid.ID, mid.ID, (owing(mid)+1)%4, l))
		fmt.Printf("spectator (%s): %s\n", l, link(linksign.PurposeSpectator, "/g/"+mid.ID, mid.ID, linksign.NoSeat, l))
		fmt.Printf("over (%s): %s\n", l, link(linksign.PurposeSeat, "/g/"+over.ID, over.ID, 0, l))
		fmt.Printf("log (%s): %s\n", l, link(linksign.PurposeSeat, "/g/"+mid.ID+"/log", mid.ID, 0, l))
		fmt.Printf("replay (%s): %s&step=60\n", l, link(linksign.PurposeSeat, "/g/"+mid.ID+"/log", mid.ID, 0, l))
		fmt.Printf("org invited (%s): %s\n", l, link(linksign.PurposeOrganiser, "/g/"+invited.ID+"/org", invited.ID, linksign.NoSeat, l))
		fmt.Printf("org playing (%s): %s\n", l, link(linksign.PurposeOrganiser, "/g/"+mid.ID+"/org", mid.ID, linksign.NoSeat, l))
		fmt.Printf("invite (%s): %s\n", l, link(linksign.PurposeInvite, "/g/"+invited.ID+"/invite", invited.ID, 0, l))
		fmt.Printf("me (%s): %s\n", l, link(linksign.PurposeMyGames, "/me", "p0@example.org", linksign.NoSeat, l))
		fmt.Printf("auction (%s): %s\n", l, link(linksign.PurposeSeat, "/g/"+auction.ID, auction.ID, owing(auction), l))
		fmt.Printf("home (%s): %s/?lang=%s\n", l, base, l)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: httpapi.New(httpapi.Deps{Games: testGames, Service: svc, Log: quiet, BaseURL: base})}
	go srv.Serve(ln)
	wait := 10 * time.Minute
	if d, err := time.ParseDuration(os.Getenv("PBM_PREVIEW_FOR")); err == nil {
		wait = d
	}
	time.Sleep(wait)
	srv.Close()
}
