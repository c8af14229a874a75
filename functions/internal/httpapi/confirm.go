package httpapi

import (
	"net/http"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// The organiser confirms their address from the mail Create sent to it:
// the link's GET shows a button and changes nothing (mail scanners open
// links), the button's POST confirms and leads to the organiser's page.

type confirmData struct {
	page
	ID, Token, Email, GameName string
	Seats                      int
	Done                       bool
	// Cancelled: the game was called off; there is nothing to confirm.
	Cancelled bool
	OrgURL    string
}

func (a *api) confirmPage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("t")
	_, rec, _, ok := a.loadGame(w, r, a.pageError, token, linksign.PurposeConfirm)
	if !ok {
		return
	}
	l := lang(r)
	d := confirmData{page: newPage(r, "confirm_title"), ID: rec.ID, Token: token, Email: rec.Organiser.Email,
		GameName: a.gameName(l, rec.Kind), Seats: len(rec.Seats), Done: rec.Status != service.StatusUnconfirmed,
		Cancelled: rec.Status == service.StatusCancelled}
	if d.Done {
		org, err := a.svc.Token(linksign.PurposeOrganiser, rec.ID, linksign.NoSeat, 0, service.OrganiserTokenTTL)
		if err != nil {
			a.pageError(w, r, err)
			return
		}
		d.OrgURL = pageLink("/g/"+rec.ID+"/org", org, l)
	}
	a.render(w, r, http.StatusOK, "confirm.html", d)
}

func (a *api) confirmPost(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if _, err := a.authorize(r, r.PostFormValue("t"), linksign.PurposeConfirm); err != nil {
		a.pageError(w, r, err)
		return
	}
	if err := a.svc.Confirm(r.Context(), id); err != nil {
		a.pageError(w, r, err)
		return
	}
	org, err := a.svc.Token(linksign.PurposeOrganiser, id, linksign.NoSeat, 0, service.OrganiserTokenTTL)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	http.Redirect(w, r, pageLink("/g/"+id+"/org", org, lang(r)), http.StatusSeeOther)
}

// confirm is the API's confirmation, with the token of the mail's link.
func (a *api) confirm(w http.ResponseWriter, r *http.Request) {
	if _, err := a.authorize(r, bearer(r), linksign.PurposeConfirm); err != nil {
		a.fail(w, r, err)
		return
	}
	id := r.PathValue("id")
	if err := a.svc.Confirm(r.Context(), id); err != nil {
		a.fail(w, r, err)
		return
	}
	rec, _, err := a.svc.Load(r.Context(), id)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": rec.Status})
}
