package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/templates"
)

// page is what every page template reads.
type page struct {
	Lang           string
	Title          string
	LinkRU, LinkEN string
	Game           bool // the page shows a game: it takes the game's styles
	SeatCSS        template.CSS
	Mailbox        string // the local run's mailbox, shown on every page
	// Named is what the organiser called the game a page is of, if
	// anything: its heading names it (issue 27).
	Named string
}

var seatCSSOnce = seatCSS()

func newPage(r *http.Request, title string) page {
	l := lang(r)
	q := r.URL.Query()
	q.Set("lang", "ru")
	ru := r.URL.Path + "?" + q.Encode()
	q.Set("lang", "en")
	en := r.URL.Path + "?" + q.Encode()
	if r.Method != http.MethodGet { // after a POST: the page's own GET sets them
		ru, en = "/?lang=ru", "/?lang=en"
	}
	mailbox, _ := r.Context().Value(mailboxKey).(string)
	return page{Lang: l, Title: templates.T(l, title), LinkRU: ru, LinkEN: en, SeatCSS: seatCSSOnce, Mailbox: mailbox}
}

// render writes a page; a template failure is an internal error.
func (a *api) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	var buf bytes.Buffer
	if err := templates.Render(&buf, name, data); err != nil {
		a.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = buf.WriteTo(w)
}

// pageError shows a failure as a page in the reader's language.
func (a *api) pageError(w http.ResponseWriter, r *http.Request, err error) {
	e, status := a.classify(r, err)
	// A link that does not open (forged, expired, cut short by a mail
	// program) says where the player's working links are.
	badLink := e.Code == service.CodeUnauthorized || e.Code == service.CodeForbidden
	a.render(w, r, status, "message.html", messageData{page: newPage(r, "error"), Message: e.Message(lang(r)), IsError: true, BadLink: badLink})
}

// messageData is what the message page shows.
type messageData struct {
	page
	Message          string
	IsError, BadLink bool
}

// notFound answers a path no route has: the pages' own styled page in
// the reader's language, a JSON error under /api/.
func (a *api) notFound(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/api/") {
		a.fail(w, r, service.Fail(service.CodeNotFound, fmt.Errorf("no route %s %s", r.Method, r.URL.Path)))
		return
	}
	a.render(w, r, http.StatusNotFound, "message.html", messageData{page: newPage(r, "not_found_title"),
		Message: templates.T(lang(r), "not_found"), IsError: true})
}

func (a *api) gameName(l, kind string) string { return a.games.GameName(l, kind) }

// langLinks points the language switch at the GET of a page with its
// token (a page shown in answer to a POST has no URL of its own to reuse).
func (p *page) langLinks(path, token string) {
	p.LinkRU, p.LinkEN = pageLink(path, token, "ru"), pageLink(path, token, "en")
}

// retitle sets the page's title and, on the answer to a POST, points its
// language switch at the GET of path with token (langLinks).
func (p *page) retitle(r *http.Request, title, path, token string) {
	p.Title = title
	if r.Method != http.MethodGet {
		p.langLinks(path, token)
	}
}

// head is the page itself, in the data of a page that embeds it.
func (p *page) head() *page { return p }

// gameHead is what a page of one game opens with for the reader of
// token: the game's id and name, the token and the game page's address;
// the heading names the game as its organiser called it (page.Named).
type gameHead struct {
	page
	ID, Token, GameName, GameURL string
}

// loadGamePage loads the game of token's reader for its page titled title
// (a key), as loadGame does, and makes the page's head; on an error it
// answers with the error page and returns false.
func (a *api) loadGamePage(w http.ResponseWriter, r *http.Request, token, title string, purposes ...linksign.Purpose) (gameHead, reader, *service.Record, int64, bool) {
	rd, rec, ver, ok := a.loadGame(w, r, a.pageError, token, purposes...)
	if !ok {
		return gameHead{}, reader{}, nil, 0, false
	}
	l := lang(r)
	h := gameHead{page: newPage(r, title), ID: rec.ID, Token: token, GameName: a.gameName(l, rec.Kind), GameURL: pageLink("/g/"+rec.ID, token, l)}
	h.Named = rec.Name
	return h, rd, rec, ver, true
}

// link builds a page URL with its token.
func (a *api) link(path, token, l string) string {
	q := url.Values{"t": {token}}
	if l != "" {
		q.Set("lang", l)
	}
	return a.base + path + "?" + q.Encode()
}

// actPage applies one decision from the seat page's forms. A token from a
// mail acts while the seat owes decisions of the round it was mailed for;
// each form carries the seat's step and the decisions it owed when the
// page was drawn, so a form is refused ("already done") only when that
// seat's decision has been made or has changed — never because another
// seat moved meanwhile. Each answer redirects to the page, so a turn of
// several decisions goes on in one visit.
func (a *api) actPage(w http.ResponseWriter, r *http.Request) {
	rd, token, ok := a.postedReader(w, r, linksign.PurposeSeat)
	if !ok {
		return
	}
	act, err := formAction(r)
	if err != nil {
		a.renderSeat(w, r, token, http.StatusBadRequest, service.AsError(err).Message(lang(r)))
		return
	}
	if a.askToConfirm(w, r, token, rd, act) {
		return
	}
	pre := service.Precondition{Position: rd.claims.Version, Decision: r.PostFormValue("decision")}
	if v := r.PostFormValue("step"); v != "" {
		if pre.Step, err = strconv.ParseInt(v, 10, 64); err != nil || pre.Step < 1 {
			a.renderSeat(w, r, token, http.StatusBadRequest, service.Fail(service.CodeInvalid, fmt.Errorf("step %q", v)).Message(lang(r)))
			return
		}
	}
	key := r.PostFormValue("key")
	if key == "" && pre.Step != 0 {
		key = pageKey(pre.Step, act)
	}
	res, err := a.svc.Act(r.Context(), r.PathValue("id"), rd.claims.Seat, act, key, pre)
	if err != nil {
		e, status := a.classify(r, err)
		msg := e.Message(lang(r))
		switch {
		case errors.Is(err, service.ErrDecisionChanged):
			msg = templates.T(lang(r), "choice_changed")
		case e.Code == service.CodeConflict:
			// The game moved on: show where it stands at a URL of its
			// own, so that reloading the page does not post again.
			http.Redirect(w, r, a.link("/g/"+r.PathValue("id"), token, lang(r))+"&done=1", http.StatusSeeOther)
			return
		}
		a.renderSeat(w, r, token, status, msg)
		return
	}
	next := token
	if rd.claims.Version != 0 {
		if next, err = a.svc.Token(linksign.PurposeSeat, r.PathValue("id"), rd.claims.Seat, res.Position, service.SeatTokenTTL); err != nil {
			a.pageError(w, r, err)
			return
		}
	}
	http.Redirect(w, r, pageLink("/g/"+r.PathValue("id"), next, lang(r)), http.StatusSeeOther)
}

// pageKey is the idempotency key of a seat page's form, which carries
// none: the seat's step the page showed and the action chosen on it. The
// same form posted twice (a double click, a retry) is applied once; a move
// chosen at the same step from another copy of the page is the same move;
// any other move at that step finds the seat's decision made.
func pageKey(step int64, a engine.Action) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%d|%s|%d|%d|%s|%d", step, a.Type, a.Cell, a.Target, a.Good, a.Amount))
	return "pg" + hex.EncodeToString(h[:10])
}

// formError classifies a failure to read a posted form: a body over
// MaxBody is too large, anything else is a bad request.
func formError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return service.Fail(service.CodeTooLarge, err)
	}
	return service.Fail(service.CodeInvalid, err)
}

// parseForm reads a page's posted form before anything looks at its
// fields, so a body that cannot be read is answered as such (413, 400)
// rather than as a missing token. It answers the failure itself.
func (a *api) parseForm(w http.ResponseWriter, r *http.Request) bool {
	if err := readForm(r); err != nil {
		a.pageError(w, r, err)
		return false
	}
	return true
}

// readForm reads a posted form and holds it to UTF-8 text: the failure
// for a page that answers it in a form of its own (parseForm answers it
// with the error page).
func readForm(r *http.Request) error {
	if err := r.ParseForm(); err != nil {
		return formError(err)
	}
	return formText(r.Form)
}

// formText refuses a form whose names or values are not UTF-8 text, as
// decodeJSON refuses such a JSON body: one check for both.
func formText(form url.Values) error {
	for k, vs := range form {
		if !utf8.ValidString(k) || slices.ContainsFunc(vs, func(v string) bool { return !utf8.ValidString(v) }) {
			return service.NotUTF8(fmt.Errorf("form field %q is not UTF-8", k))
		}
	}
	return nil
}

// postedReader reads a page's posted form and authorizes its token for
// the game in the path, for purpose. On an error it answers with the
// error page and returns false.
func (a *api) postedReader(w http.ResponseWriter, r *http.Request, purpose linksign.Purpose) (reader, string, bool) {
	if !a.parseForm(w, r) {
		return reader{}, "", false
	}
	token := r.PostFormValue("t")
	rd, err := a.authorize(r, token, purpose)
	if err != nil {
		a.pageError(w, r, err)
		return reader{}, "", false
	}
	return rd, token, true
}

// formAction reads an action from a posted form.
func formAction(r *http.Request) (engine.Action, error) {
	f := r.PostForm
	a := engine.Action{Type: f.Get("type"), Good: f.Get("good")}
	for _, fld := range []struct {
		name string
		dst  *int
	}{{"cell", &a.Cell}, {"target", &a.Target}} {
		if v := f.Get(fld.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return a, service.Fail(service.CodeInvalid, fmt.Errorf("%s: %w", fld.name, err))
			}
			*fld.dst = n
		}
	}
	if v := f.Get("alt"); v != "" { // a decision chosen from a form's list
		if err := views.ParseAlt(v, &a); err != nil {
			return a, service.Fail(service.CodeInvalid, err)
		}
	}
	if v := f.Get("amount"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return a, service.Fail(service.CodeInvalid, fmt.Errorf("amount: %w", err))
		}
		a.Amount = n
	}
	return a, nil
}
