package httpapi_test

import (
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
)

// TestMyGamesSayTurnDebtAndDeadline (issue 27): «Мои игры» shows for
// each game whose move it is, what the player owes and by when, the
// games that need them soonest first.
func TestMyGamesSayTurnDebtAndDeadline(t *testing.T) {
	f := newPageFixture(t)
	me := service.Person{Name: "Мила", Email: "mila@pbm.test", Lang: "ru"}
	other := service.Person{Name: "Олег", Email: "oleg@pbm.test", Lang: "ru"}
	newGame := func(name string, hours int, seats ...service.Person) string {
		c, err := f.svc.Create(t.Context(), service.CreateRequest{Kind: "western", Name: name, DeadlineHours: hours,
			Options: []byte(`{"laps":5}`), Organiser: service.Person{Name: "Org", Email: "org@pbm.test", Lang: "ru"}, Seats: seats})
		if err != nil {
			t.Fatal(err)
		}
		f.confirmAndAccept(c.ID, len(seats))
		return c.ID
	}
	newGame("Поздняя", 72, me, other)   // Мила moves first, due in 72 h
	newGame("Срочная", 12, me, other)   // … due in 12 h: first on the page
	newGame("Чужой ход", 24, other, me) // Олег moves
	p, err := f.svc.Prefs(t.Context(), me.Email)
	if err != nil {
		t.Fatal(err)
	}
	token, err := f.svc.PlayerToken(t.Context(), p, linksign.PurposeMyGames)
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, f.srv.URL)
	code, page := b.get("/me?lang=ru&t=" + url.QueryEscape(token))
	if code != 200 {
		t.Fatalf("my games: %d", code)
	}
	items := regexp.MustCompile(`(?s)<li>.*?</li>`).FindAllString(page, -1)
	if len(items) != 3 {
		t.Fatalf("%d games listed, want 3:\n%s", len(items), page)
	}
	text := func(s string) string {
		return strings.Join(strings.Fields(html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(s, " "))), " ")
	}
	for i, want := range []struct{ name, has, hasNot string }{
		{"Срочная", "Ваш ход: Вы на клетке", "Ждём"},
		{"Поздняя", "Ваш ход: Вы на клетке", "Ждём"},
		{"Чужой ход", "Ждём: Олег", "Ответить до"},
	} {
		got := text(items[i])
		if !strings.Contains(got, want.name) || !strings.Contains(got, want.has) || strings.Contains(got, want.hasNot) {
			t.Errorf("game %d: %q; want %s saying %q, not %q", i+1, got, want.name, want.has, want.hasNot)
		}
		if i < 2 && !strings.Contains(got, "Ответить до") {
			t.Errorf("game %d: %q gives no deadline", i+1, got)
		}
	}
}

// confirmAndAccept confirms game id's organiser, turns the orders off
// (each decision is the player's) and accepts its seats.
func (f *pageFixture) confirmAndAccept(id string, seats int) {
	f.t.Helper()
	servicetest.Confirm(f.t, f.svc, id)
	servicetest.OrdersOff(f.t, f.svc, id)
	for i := range seats {
		if _, err := f.svc.Accept(f.t.Context(), id, i); err != nil {
			f.t.Fatal(err)
		}
	}
}
