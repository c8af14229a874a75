package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
)

// TestGameNameUsedEverywhere (issue 10, symptom 11): a game's name comes
// from its organiser — from the create form — and "my games", the seat
// page's title and the mails' subjects use it; a game without one is
// named by its kind and players, never by its id. A name with markup or
// too long is refused with a clear error and makes no game.
func TestGameNameUsedEverywhere(t *testing.T) {
	f := newPageFixture(t)
	form := url.Values{"kind": {"western"}, "game_name": {"  Пятничный Вестерн  "}, "key": {"game-name-key-1"},
		"org_name": {"Org"}, "org_email": {"org@pbm.test"}, "org_lang": {"ru"},
		"name0": {"Анна"}, "email0": {"p0@pbm.test"}, "lang0": {"ru"},
		"name1": {"Bob"}, "email1": {"p1@pbm.test"}, "lang1": {"en"}}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.PostForm(f.srv.URL+"/games?lang=ru", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("create: %d", resp.StatusCode)
	}
	ids, err := f.svc.Player(t.Context(), "org@pbm.test")
	if err != nil || len(ids.Games) != 1 {
		t.Fatalf("the organiser's games: %v, %v", ids.Games, err)
	}
	id := ids.Games[0]
	rec, _, err := f.svc.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Name != "Пятничный Вестерн" {
		t.Fatalf("stored name %q", rec.Name)
	}
	if got := rec.Title("en", "Western"); got != "Пятничный Вестерн" {
		t.Errorf("title %q", got)
	}
	servicetest.Confirm(t, f.svc, id)
	for i := range 2 {
		if _, err := f.svc.Accept(t.Context(), id, i); err != nil {
			t.Fatal(err)
		}
	}

	_, me := f.page("/me", url.Values{"t": {f.token(linksign.PurposeMyGames, "p0@pbm.test", linksign.NoSeat)}, "lang": {"ru"}})
	if !strings.Contains(me, "Пятничный Вестерн") || strings.Contains(me, id[:6]+"<") {
		t.Errorf("«my games» does not name the game by its name:\n%s", me)
	}
	_, seat := f.page("/g/"+id, url.Values{"t": {f.token(linksign.PurposeSeat, id, 0)}, "lang": {"ru"}})
	if !strings.Contains(seat, "<title>Пятничный Вестерн — ") {
		t.Errorf("the seat page's title does not name the game")
	}

	// Without a name: kind and players, in both languages.
	other := f.create(2, 3, 0)
	rec, _, err = f.svc.Load(t.Context(), other.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rec.Title("ru", "Вестерн"), "«Вестерн» (Анна Каренина-Вронская, Bob O'Neil)"; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
	if got, want := rec.Title("en", "Western"), "Western (Анна Каренина-Вронская, Bob O'Neil)"; got != want {
		t.Errorf("title %q, want %q", got, want)
	}

	for _, bad := range []string{"<b>Вестерн</b>", strings.Repeat("я", service.MaxGameNameLen+1), "tab\there"} {
		_, err := f.svc.Create(t.Context(), service.CreateRequest{Kind: "western", Name: bad,
			Organiser: service.Person{Email: "org@pbm.test"},
			Seats:     []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}}})
		if e := service.AsError(err); e == nil || e.Code != service.CodeInvalid {
			t.Errorf("name %q: %v, want invalid", bad, err)
		}
	}
	if p, _ := f.svc.Player(t.Context(), "a@pbm.test"); len(p.Games) != 0 {
		t.Errorf("a refused name made a game: %v", p.Games)
	}
}
