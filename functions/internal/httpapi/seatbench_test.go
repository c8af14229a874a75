package httpapi_test

import (
	"context"
	"fmt"
	"log/slog"
	mathrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store/boltstore"
)

// BenchmarkSeatPage renders the seat page of a 6-seat «Вестерн» game late
// in play (SPEC §6): load, decode, the view, the SVG board, the panels and
// the decisions, through the whole handler.
//
//	go test ./functions/internal/httpapi -run XXX -bench SeatPage -benchmem
func BenchmarkSeatPage(b *testing.B) {
	dir, err := os.MkdirTemp("", "pbm-bench-")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	st, err := boltstore.Open(filepath.Join(dir, "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	keys, _ := linksign.NewKeyring("k1", map[string][]byte{"k1": make([]byte, 32)})
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	quiet := slog.New(slog.DiscardHandler)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Log: quiet, Now: func() time.Time { return now },
		Rand: mathrand.NewChaCha8([32]byte{'b', 'e', 'n', 'c', 'h'})})
	h := httpapi.New(httpapi.Deps{Games: testGames, Service: svc, Log: quiet})
	ctx := context.Background()
	req := service.CreateRequest{Kind: "western", Options: []byte(`{"laps":12}`), Organiser: service.Person{Email: "org@pbm.test"}}
	for i := range 6 {
		req.Seats = append(req.Seats, service.Person{Name: fmt.Sprintf("Игрок %d", i+1), Email: fmt.Sprintf("p%d@pbm.test", i)})
	}
	c, err := svc.Create(ctx, req)
	if err != nil {
		b.Fatal(err)
	}
	servicetest.Confirm(b, svc, c.ID)
	for i := range 6 {
		if _, err := svc.Accept(ctx, c.ID, i); err != nil {
			b.Fatal(err)
		}
	}
	// Late in the game: the bots play until someone has nine laps.
	var rec *service.Record
	for n := 0; ; n++ {
		rec, _, _ = svc.Load(ctx, c.ID)
		g, _ := svc.Engine(rec)
		if g.Over() {
			b.Fatal("the game ended before the benchmark point")
		}
		if v, ok := g.View(-1).(western.View); ok && maxLaps(v) >= 9 {
			break
		}
		seat := g.Owing()[0]
		for i, s := range rec.Seats {
			if s.Engine == seat {
				if _, err := svc.ActBot(ctx, c.ID, i, ""); err != nil {
					b.Fatal(err)
				}
			}
		}
		if n > 20000 {
			b.Fatal("no seat reached lap 9")
		}
	}
	g, _ := svc.Engine(rec)
	inv := -1
	for i, s := range rec.Seats {
		if s.Engine == g.Owing()[0] {
			inv = i
		}
	}
	tok, _ := svc.Token(linksign.PurposeSeat, c.ID, inv, 0, time.Hour)
	url := "/g/" + c.ID + "?lang=ru&t=" + tok
	var size int
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, url, nil))
		if w.Code != http.StatusOK {
			b.Fatalf("status %d", w.Code)
		}
		size = w.Body.Len()
	}
	b.ReportMetric(float64(size), "page-bytes")
}

// maxLaps is the most laps any seat has completed.
func maxLaps(v western.View) int {
	n := 0
	for _, p := range v.Players {
		n = max(n, p.Laps)
	}
	return n
}
