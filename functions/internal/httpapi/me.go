package httpapi

import (
	"net/http"
	"strings"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/templates"
)

// playerClaims checks a personal link ("my games" or unsubscribe): the
// token names the player by their link id (older ones by the address),
// and must not have been revoked (service.Me).
func (a *api) playerClaims(r *http.Request, token string, p linksign.Purpose) (service.Me, error) {
	return a.svc.Me(r.Context(), token, p)
}

// mePage is the player's "my games" page: a page of their games, each
// with a link, a link to the next page, and the mail preferences.
func (a *api) mePage(w http.ResponseWriter, r *http.Request) {
	a.renderMe(w, r, r.URL.Query().Get("t"), "")
}

// renderMe draws the "my games" page from the games after the cursor in
// the query's "after" (the first page without): three requests for the
// first page (service.MyGamesOf).
func (a *api) renderMe(w http.ResponseWriter, r *http.Request, token, notice string) {
	after := r.URL.Query().Get("after")
	mine, err := a.svc.MyGamesOf(r.Context(), token, after, service.MyGamesPage)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	email, p := mine.Me.Email, mine.Me.Player
	l := lang(r)
	data := struct {
		page
		Token, Email, Notice, Mail, TimeZone string
		Unsubscribed                         bool
		Games                                []views.MyGame
		LinksURL                             string
		// Next is the link to the next page of games, First to the
		// first when this is not it.
		Next, First string
	}{page: newPage(r, "my_games"), Token: token, Email: email, Notice: notice, Mail: p.Mail, TimeZone: p.TimeZone, Unsubscribed: p.Unsubscribed,
		LinksURL: pageLink("/me/links", token, l)}
	if r.Method != http.MethodGet {
		data.langLinks("/me", token)
	}
	if data.Mail == "" {
		data.Mail = store.MailAll
	}
	link := func(path, token string) string { return pageLink(path, token, l) }
	if data.Games, err = views.MyGames(a.games, l, mine.Games, a.now(), a.sign, link); err != nil {
		a.pageError(w, r, err)
		return
	}
	if mine.Next != "" {
		data.Next = pageLink("/me", token, l, "after", mine.Next)
	}
	if after != "" {
		data.First = link("/me", token)
	}
	a.render(w, r, http.StatusOK, "me.html", data)
}

// savePrefs stores the preferences form of the "my games" page.
func (a *api) savePrefs(w http.ResponseWriter, r *http.Request) {
	if !a.parseForm(w, r) {
		return
	}
	token := r.PostFormValue("t")
	me, err := a.playerClaims(r, token, linksign.PurposeMyGames)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	a.touch(r, me)
	if err := a.svc.SetPrefs(r.Context(), me.Email, lang(r), r.PostFormValue("mail"), strings.TrimSpace(r.PostFormValue("tz")), r.PostFormValue("unsub") != ""); err != nil {
		a.pageError(w, r, err)
		return
	}
	a.renderMe(w, r, token, templates.T(lang(r), "saved"))
}

// unsubscribePage asks to confirm: a GET changes nothing (mail scanners
// open links).
func (a *api) unsubscribePage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("t")
	if _, err := a.playerClaims(r, token, linksign.PurposeUnsubscribe); err != nil {
		a.pageError(w, r, err)
		return
	}
	a.renderUnsubscribe(w, r, token, false)
}

// renderUnsubscribe draws the unsubscribe page: asking to confirm, with
// the token, or saying it is done.
func (a *api) renderUnsubscribe(w http.ResponseWriter, r *http.Request, token string, done bool) {
	a.render(w, r, http.StatusOK, "unsubscribe.html", struct {
		page
		Token string
		Done  bool
	}{newPage(r, "unsubscribe"), token, done})
}

// unsubscribe is the one-click unsubscribe of RFC 8058 (a POST with
// List-Unsubscribe=One-Click to the URL of the List-Unsubscribe header,
// token in the query) and the confirmation button of the page.
func (a *api) unsubscribe(w http.ResponseWriter, r *http.Request) {
	if !a.parseForm(w, r) {
		return
	}
	token := r.URL.Query().Get("t")
	if token == "" {
		token = r.PostFormValue("t")
	}
	me, err := a.playerClaims(r, token, linksign.PurposeUnsubscribe)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	if err := a.svc.Unsubscribe(r.Context(), me.Email); err != nil {
		a.pageError(w, r, err)
		return
	}
	a.renderUnsubscribe(w, r, "", true)
}
