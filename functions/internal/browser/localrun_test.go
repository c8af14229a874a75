package browser

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/mailer"
	"github.com/pbmgames/pbm/infra/mailer/mailbox"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestLocalRunPagesAccessible (issue 27): the pages only the local run
// has — every page's banner pointing to the local mailbox, the mailbox
// and a mail in it — and the home page at a phone's width, where its
// table of lengths scrolls: axe-core finds nothing moderate or worse.
func TestLocalRunPagesAccessible(t *testing.T) {
	st, keys := scratchStore(t)
	box, err := mailbox.Open(filepath.Join(t.TempDir(), "mailbox.db"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { box.Close() })
	if err := box.Send(t.Context(), mailer.Message{ID: "g/1", To: "anna@pbm.test", Subject: "Приглашение в игру «Вестерн»",
		Text: "Здравствуйте, Анна!\n\nhttp://127.0.0.1/g/x?t=y", HTML: "<!doctype html><html><body><p>Здравствуйте, Анна!</p></body></html>"}); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Players: st, Keys: keys, Log: log, Rand: testenv.Rand(t.Name())})
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Games: testGames, Service: svc, Log: log, MailboxURL: "/mailbox",
		Extra: func(mux *http.ServeMux) {
			mux.Handle("/mailbox", box.Handler())
			mux.Handle("/mailbox/", box.Handler())
		}}))
	t.Cleanup(srv.Close)
	b := newBrowser(t, srv.URL)
	var reports []axeReport
	for _, p := range []struct{ kind, path string }{{"home with the banner", "/?lang=ru"}, {"league form", "/leagues/new?lang=en"},
		{"mailbox", "/mailbox?lang=ru"}, {"a mail", "/mailbox/1?lang=en"}} {
		b.open(p.kind, srv.URL+p.path)
		reports = append(reports, b.axe(p.kind))
	}
	b.do(chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateMobile))
	b.open("home", srv.URL+"/?lang=ru")
	reports = append(reports, b.axe("home, phone"))
	b.do(chromedp.EmulateViewport(desktopWidth, desktopHeight))
	for _, r := range reports {
		t.Logf("%-22s %d rules, %d moderate or worse, %d minor", r.Kind+":", r.Rules, len(r.grave()), len(r.Violations)-len(r.grave()))
		for _, v := range r.grave() {
			t.Errorf("the %s page %s: %s", r.Kind, r.Path, v)
		}
	}
}
