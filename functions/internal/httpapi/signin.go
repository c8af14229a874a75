package httpapi

import (
	"net/http"
	"time"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/templates"
)

// Sign in by mail and the player's links (issue 17). Every GET here only
// shows (link scanners open links): the sign-in link's page has a button,
// whose POST spends the link.

// signinPage is the sign-in form.
func (a *api) signinPage(w http.ResponseWriter, r *http.Request) {
	a.renderSignin(w, r, "signin.html", signinData{})
}

// signinData is the sign-in pages': the form (Sent: the link has gone)
// and the button that spends a sign-in link (its Token).
type signinData struct {
	page
	Sent  bool
	Token string
}

func (a *api) renderSignin(w http.ResponseWriter, r *http.Request, name string, d signinData) {
	d.page = newPage(r, "signin_title")
	a.render(w, r, http.StatusOK, name, d)
}

// signin asks for a sign-in link. Its answer is the same, byte for byte,
// whether or not the address is a player's: it does not repeat the
// address, and the mail, if any, is decided and sent apart from it
// (service.AskSignIn).
func (a *api) signin(w http.ResponseWriter, r *http.Request) {
	if !a.parseForm(w, r) {
		return
	}
	if err := a.svc.AskSignIn(r.Context(), r.PostFormValue("email"), clientAddr(r), lang(r)); err != nil {
		if e := service.AsError(err); e.Code == service.CodeTooMany {
			retryAfter(w, e)
		}
		a.pageError(w, r, err)
		return
	}
	a.renderSignin(w, r, "signin.html", signinData{Sent: true})
}

// signinOpenPage is the page a sign-in link opens: a button, and nothing
// spent.
func (a *api) signinOpenPage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("t")
	if _, err := a.svc.Me(r.Context(), token, linksign.PurposeSignIn); err != nil {
		a.pageError(w, r, err)
		return
	}
	a.renderSignin(w, r, "signin_open.html", signinData{Token: token})
}

// signinOpen spends a sign-in link and opens "my games" with the
// session it starts.
func (a *api) signinOpen(w http.ResponseWriter, r *http.Request) {
	if !a.parseForm(w, r) {
		return
	}
	session, err := a.svc.OpenSignIn(r.Context(), r.PostFormValue("t"))
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	http.Redirect(w, r, pageLink("/me", session, lang(r)), http.StatusSeeOther)
}

// linkRow is one sign-in link or session as the links page shows it.
type linkRow struct {
	ID, Kind, Issued, Used, Expires, Revoked string
	Current                                  bool
}

// linksPage lists the links the player has been sent, each with a
// button to revoke it.
func (a *api) linksPage(w http.ResponseWriter, r *http.Request) {
	a.renderLinks(w, r, r.URL.Query().Get("t"), "")
}

func (a *api) renderLinks(w http.ResponseWriter, r *http.Request, token, notice string) {
	me, err := a.playerClaims(r, token, linksign.PurposeMyGames)
	var ls service.Links
	if err == nil {
		ls, err = a.svc.PlayerLinks(r.Context(), me)
	}
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	l := lang(r)
	when := func(unix int64) string {
		if unix == 0 {
			return ""
		}
		return templates.Pick(l, time.Unix(unix, 0).UTC().Format("02.01.2006 15:04 UTC"), time.Unix(unix, 0).UTC().Format("2 Jan 2006 15:04 UTC"))
	}
	data := struct {
		page
		Token, Email, Notice, MeURL      string
		MailSince, MailUsed, MailRevoked string
		Links                            []linkRow
	}{page: newPage(r, "links_title"), Token: token, Email: me.Email, Notice: notice, MeURL: pageLink("/me", token, l),
		MailSince: when(ls.MailSince), MailUsed: when(ls.MailUsed), MailRevoked: when(ls.MailFrom)}
	if r.Method != http.MethodGet {
		data.langLinks("/me/links", token)
	}
	for _, k := range ls.Links {
		kind := templates.T(l, "link_signin")
		if k.Kind == service.LinkSession {
			kind = templates.T(l, "link_session")
		}
		data.Links = append(data.Links, linkRow{ID: k.ID, Kind: kind, Issued: when(k.Issued), Used: when(k.Used),
			Expires: when(k.Expires), Revoked: when(k.Revoked), Current: k.ID == ls.Current})
	}
	a.render(w, r, http.StatusOK, "links.html", data)
}

// revokeLink revokes one link; revoking the one the page was opened
// with ends there, with a page that says so.
func (a *api) revokeLink(w http.ResponseWriter, r *http.Request) {
	if !a.parseForm(w, r) {
		return
	}
	token, link := r.PostFormValue("t"), r.PostFormValue("link")
	me, ok := a.myGamesClaims(w, r, token)
	if !ok {
		return
	}
	a.touch(r, me)
	if err := a.svc.Revoke(r.Context(), me, link); err != nil {
		a.pageError(w, r, err)
		return
	}
	if link == me.Link || link == service.LinkMail && me.Link == "" {
		a.render(w, r, http.StatusOK, "message.html", messageData{page: newPage(r, "links_title"), Message: templates.T(lang(r), "revoke_done")})
		return
	}
	a.renderLinks(w, r, token, templates.T(lang(r), "revoke_done"))
}

// signOut stops every "my games" link the player has.
func (a *api) signOut(w http.ResponseWriter, r *http.Request) {
	if !a.parseForm(w, r) {
		return
	}
	me, ok := a.myGamesClaims(w, r, r.PostFormValue("t"))
	if !ok {
		return
	}
	if err := a.svc.SignOutEverywhere(r.Context(), me); err != nil {
		a.pageError(w, r, err)
		return
	}
	a.render(w, r, http.StatusOK, "message.html", messageData{page: newPage(r, "signout_all"), Message: templates.T(lang(r), "signout_done")})
}

// myGamesClaims checks a "my games" link for a page; when it fails, the
// answer is the error page, and ok is false.
func (a *api) myGamesClaims(w http.ResponseWriter, r *http.Request, token string) (me service.Me, ok bool) {
	me, err := a.playerClaims(r, token, linksign.PurposeMyGames)
	if err != nil {
		a.pageError(w, r, err)
		return service.Me{}, false
	}
	return me, true
}

// touch records the use of a personal link by a POST; a failure only
// leaves "last used" behind, so it is logged, not shown.
func (a *api) touch(r *http.Request, me service.Me) {
	if err := a.svc.Touch(r.Context(), me); err != nil {
		a.log.WarnContext(r.Context(), "link use not recorded", "err", err)
	}
}
