package httpapi

import (
	"errors"
	"net/http"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/infra/linksign"
)

// The JSON answers of the API, made in views.
type (
	GameView   = views.GameView
	PlayerView = views.PlayerView
	LogEntry   = views.LogEntry
)

// reader is who a token says is reading.
type reader struct {
	claims linksign.Claims
}

// view is the reader as views know it.
func (rd reader) view() views.Reader { return views.ReaderOf(rd.claims) }

// buildView makes the view of rec for a reader.
func (a *api) buildView(rec *service.Record, ver int64, rd reader) (GameView, error) {
	g, err := a.engine(rec)
	if err != nil {
		return GameView{}, err
	}
	v := views.Game(rec, ver, g, rd.view())
	views.AddTable(&v, rec, a.now())
	return v, nil
}

// sign signs a link token of the service (views.Signer).
func (a *api) sign(p linksign.Purpose, game string, seat int, ttl time.Duration) (string, error) {
	return a.svc.Token(p, game, seat, 0, ttl)
}

// engine is the engine game of rec; nil before it starts.
func (a *api) engine(rec *service.Record) (engine.Game, error) {
	if rec.State == nil {
		return nil, nil
	}
	return a.svc.Engine(rec)
}

// authorize checks the request's token for the game in the path.
func (a *api) authorize(r *http.Request, token string, purposes ...linksign.Purpose) (reader, error) {
	c, err := a.svc.Authorize(token, r.PathValue("id"), purposes...)
	return reader{claims: c}, err
}

var anyReader = []linksign.Purpose{linksign.PurposeSeat, linksign.PurposeOrganiser, linksign.PurposeSpectator}

// loadGame authorizes token for the game in the path, for one of
// purposes, and loads the game: its record and version. On an error it
// answers with fail (a.fail for the API, a.pageError for pages) and
// returns false.
func (a *api) loadGame(w http.ResponseWriter, r *http.Request, fail func(http.ResponseWriter, *http.Request, error), token string, purposes ...linksign.Purpose) (reader, *service.Record, int64, bool) {
	c, rec, ver, err := a.svc.AuthorizeAndLoad(r.Context(), token, r.PathValue("id"), purposes...)
	if err != nil {
		fail(w, r, err)
		return reader{}, nil, 0, false
	}
	rd := reader{claims: c}
	if err := rec.HasSeat(rd.claims); err != nil {
		fail(w, r, err)
		return reader{}, nil, 0, false
	}
	return rd, rec, ver, true
}

func (a *api) createGame(w http.ResponseWriter, r *http.Request) {
	var req service.CreateRequest
	if err := decodeJSON(r, &req); err != nil {
		a.fail(w, r, err)
		return
	}
	req.Client = clientAddr(r)
	out, err := a.svc.Create(r.Context(), req)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, out)
}

func (a *api) accept(w http.ResponseWriter, r *http.Request) {
	// The body is optional: none accepts with the suggested orders.
	var opts service.AcceptOptions
	if err := decodeOptionalJSON(r, &opts); err != nil {
		a.fail(w, r, err)
		return
	}
	tok, seat, err := a.acceptInvite(r, bearer(r), opts)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	out := AcceptAnswer{SeatToken: tok, Seat: seat}
	if rec, _, err := a.svc.Load(r.Context(), r.PathValue("id")); err == nil {
		if specs, err := service.OrderSpecsOf(a.games.Engines(), rec); err == nil {
			o := rec.SeatOrders(seat)
			out.Orders = AcceptedOrders{Set: o, Summary: views.OrdersSummary(lang(r), a.games.For(rec.Kind), specs, o),
				URL: pageLink("/g/"+rec.ID+"/orders", tok, lang(r)), API: "/api/games/" + rec.ID + "/orders"}
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// AcceptAnswer answers POST /api/games/{id}/accept: the seat's token and
// what its standing orders will play for it (SPEC §1.7).
type AcceptAnswer struct {
	SeatToken string         `json:"seat_token"`
	Seat      int            `json:"seat"`
	Orders    AcceptedOrders `json:"orders"`
}

// AcceptedOrders are a new seat's standing orders: the game's suggested
// ones, what they play in a line in the reader's language, the page that
// changes or turns them off, and the API route that does (PUT with {} to
// turn them off).
type AcceptedOrders struct {
	Set     engine.Orders `json:"set"`
	Summary string        `json:"summary"`
	URL     string        `json:"url"`
	API     string        `json:"api"`
}

// acceptInvite seats the player of an invitation token; it answers their
// seat's token and their invitation index.
func (a *api) acceptInvite(r *http.Request, token string, opts service.AcceptOptions) (string, int, error) {
	rd, err := a.authorize(r, token, linksign.PurposeInvite)
	if err != nil {
		return "", 0, err
	}
	tok, err := a.svc.AcceptWith(r.Context(), r.PathValue("id"), rd.claims.Seat, opts)
	return tok, rd.claims.Seat, err
}

// seatRequest authorizes the bearer's seat token for the game in the
// path and decodes the JSON body into req. On an error it answers and
// returns false.
func (a *api) seatRequest(w http.ResponseWriter, r *http.Request, req any) (reader, bool) {
	rd, err := a.authorize(r, bearer(r), linksign.PurposeSeat)
	if err == nil {
		err = decodeJSON(r, req)
	}
	if err != nil {
		a.fail(w, r, err)
		return reader{}, false
	}
	return rd, true
}

func (a *api) start(w http.ResponseWriter, r *http.Request) {
	if _, err := a.authorize(r, bearer(r), linksign.PurposeOrganiser); err != nil {
		a.fail(w, r, err)
		return
	}
	a.viewAfter(w, r, a.svc.Start(r.Context(), r.PathValue("id")))
}

func (a *api) view(w http.ResponseWriter, r *http.Request) {
	rd, rec, ver, ok := a.loadGame(w, r, a.fail, bearer(r), anyReader...)
	if !ok {
		return
	}
	v, err := a.buildView(rec, ver, rd)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (a *api) legal(w http.ResponseWriter, r *http.Request) {
	rd, rec, ver, ok := a.loadGame(w, r, a.fail, bearer(r), linksign.PurposeSeat)
	if !ok {
		return
	}
	out := struct {
		Version int64           `json:"version"`
		Legal   []engine.Choice `json:"legal"`
	}{Version: ver, Legal: []engine.Choice{}}
	if rec.Status == service.StatusPlaying {
		g, err := a.svc.Engine(rec)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		if seat := rec.Seats[rd.claims.Seat].Engine; seat >= 0 {
			out.Legal = append(out.Legal, g.Legal(seat)...)
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// ActRequest is the body of POST /api/games/{id}/actions.
type ActRequest struct {
	Action engine.Action `json:"action"`
	Key    string        `json:"key"` // idempotency key, 8–64 of [A-Za-z0-9_-]
	// Version, when given, is the game version the move was chosen on: a
	// move on a stale version gets 409 with the current state.
	Version int64 `json:"version,omitempty"`
}

func (a *api) act(w http.ResponseWriter, r *http.Request) {
	var req ActRequest
	rd, ok := a.seatRequest(w, r, &req)
	if !ok {
		return
	}
	// A token issued for a position (a mail's link) acts only on it.
	pre := service.Precondition{Version: req.Version, Position: rd.claims.Version}
	res, err := a.svc.Act(r.Context(), r.PathValue("id"), rd.claims.Seat, req.Action, req.Key, pre)
	if err != nil {
		a.actFailed(w, r, rd, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// actFailed answers a refused move; a lost race comes with the current
// state so the client can retry on it.
func (a *api) actFailed(w http.ResponseWriter, r *http.Request, rd reader, err error) {
	if e := service.AsError(err); e.Code != service.CodeConflict {
		a.fail(w, r, err)
		return
	}
	rec, ver, lerr := a.svc.Load(r.Context(), r.PathValue("id"))
	if lerr != nil {
		a.fail(w, r, errors.Join(err, lerr))
		return
	}
	v, verr := a.buildView(rec, ver, rd)
	if verr != nil {
		a.fail(w, r, errors.Join(err, verr))
		return
	}
	a.failWith(w, r, err, ver, v)
}

func (a *api) gameLog(w http.ResponseWriter, r *http.Request) {
	rd, rec, _, ok := a.loadGame(w, r, a.fail, bearer(r), anyReader...)
	if !ok {
		return
	}
	entries, err := a.svc.FullLog(r.Context(), rec)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	out := views.LogEntries(a.games, rec, entries, rd.view())
	writeJSON(w, http.StatusOK, map[string]any{"id": rec.ID, "kind": rec.Kind, "log": out})
}

func (a *api) result(w http.ResponseWriter, r *http.Request) {
	_, rec, _, ok := a.loadGame(w, r, a.fail, bearer(r), anyReader...)
	if !ok {
		return
	}
	if g, err := a.svc.Engine(rec); err != nil {
		a.fail(w, r, err)
	} else {
		writeJSON(w, http.StatusOK, views.Result(rec, g))
	}
}
