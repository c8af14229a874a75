package httpapi

import (
	"bytes"
	"fmt"
	"io"
	"net/http"

	"github.com/pbmgames/pbm/functions/internal/gamerecord"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// MaxRecordBody is the largest game record an import takes: a long game
// of six with every event is well under it, and it stays under Lambda's
// 6 MB payload.
const MaxRecordBody = 4 << 20

// gameRecord answers the finished game's record (gamerecord.Document) to
// any reader of the game, as a file to keep.
func (a *api) gameRecord(w http.ResponseWriter, r *http.Request) {
	a.serveRecord(w, r, bearer(r), a.fail)
}

// recordPage is the game-over page's download link: the same document,
// the token in the link.
func (a *api) recordPage(w http.ResponseWriter, r *http.Request) {
	a.serveRecord(w, r, r.URL.Query().Get("t"), a.pageError)
}

func (a *api) serveRecord(w http.ResponseWriter, r *http.Request, token string, fail func(http.ResponseWriter, *http.Request, error)) {
	_, rec, _, ok := a.loadGame(w, r, fail, token, anyReader...)
	if !ok {
		return
	}
	doc, err := a.svc.GameRecord(r.Context(), rec)
	if err != nil {
		fail(w, r, err)
		return
	}
	w.Header().Set("Content-Disposition", `attachment; filename="pbm-`+rec.ID+`.json"`)
	writeJSON(w, http.StatusOK, doc)
}

// importRecord checks a game record by replaying it and keeps it as a
// finished game to view; one that does not replay is refused with its
// first divergent step.
func (a *api) importRecord(w http.ResponseWriter, r *http.Request) {
	var doc gamerecord.Document
	if err := decodeJSON(r, &doc); err != nil {
		a.fail(w, r, err)
		return
	}
	out, err := a.svc.Import(r.Context(), &doc, clientAddr(r))
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, out)
}

// importPage is the home page's form for a record file: one that
// replays is kept and shown as a finished game; one that does not is
// refused with its first divergent step.
func (a *api) importPage(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseMultipartForm(MaxRecordBody); err != nil {
		a.pageError(w, r, formError(err))
		return
	}
	f, _, err := r.FormFile("record")
	if err != nil {
		a.pageError(w, r, service.Fail(service.CodeInvalid, fmt.Errorf("record file: %w", err)))
		return
	}
	defer f.Close()
	raw, err := io.ReadAll(f)
	if err != nil {
		a.pageError(w, r, formError(err))
		return
	}
	doc, err := gamerecord.Decode(bytes.NewReader(raw))
	if err != nil {
		a.pageError(w, r, &service.Error{Code: service.CodeInvalid, RU: "Это не запись партии.", EN: "This is not a game record.", Cause: err})
		return
	}
	if err := jsonText(raw); err != nil { // as POST /api/records refuses it
		a.pageError(w, r, err)
		return
	}
	out, err := a.svc.Import(r.Context(), doc, clientAddr(r))
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	http.Redirect(w, r, pageLink("/g/"+out.ID, out.SpectatorToken, lang(r)), http.StatusSeeOther)
}
