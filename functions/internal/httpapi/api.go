package httpapi

import (
	"errors"
	"net/http"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/infra/linksign"
)

// GameView is the JSON of a game as one reader may see it.
type GameView struct {
	ID      string       `json:"id"`
	Kind    string       `json:"kind"`
	Status  string       `json:"status"`
	Version int64        `json:"version"`
	Moves   int          `json:"moves"`
	As      string       `json:"as"`             // seat, organiser or spectator
	Seat    *int         `json:"seat,omitempty"` // the reader's invitation index
	Players []PlayerView `json:"players"`
	Owing   []int        `json:"owing,omitempty"` // invitation indexes that owe a decision
	Game    any          `json:"game,omitempty"`  // the engine's view for this reader (P-3)
	// SeedSHA256 commits to the game's seed from its creation on; Seed
	// (hex) is revealed once the game is over, and never before.
	SeedSHA256 string `json:"seed_sha256"`
	Seed       string `json:"seed,omitempty"`
	// Rules is the rules version the game is played under.
	Rules int `json:"rules"`
}

// PlayerView is one invited player, as the reader may see them.
type PlayerView struct {
	Index    int    `json:"index"`
	Name     string `json:"name"`
	Email    string `json:"email,omitempty"` // the organiser and the player only
	Accepted bool   `json:"accepted"`
	Seat     int    `json:"seat"` // in the engine; −1 if not playing
}

// reader is who a token says is reading.
type reader struct {
	claims linksign.Claims
}

// view is the reader as views know it.
func (rd reader) view() views.Reader { return views.ReaderOf(rd.claims) }

func (rd reader) seatIndex() int {
	if rd.claims.Purpose == linksign.PurposeSeat {
		return rd.claims.Seat
	}
	return -1
}

// buildView makes the view of rec for a reader.
func (a *api) buildView(rec *service.Record, ver int64, rd reader) (GameView, error) {
	v := GameView{ID: rec.ID, Kind: rec.Kind, Status: rec.Status, Version: ver, Moves: rec.Moves,
		SeedSHA256: rec.SeedCommitment(), Seed: rec.RevealedSeed(), Rules: rec.Rules}
	inv := rd.seatIndex()
	switch rd.claims.Purpose {
	case linksign.PurposeSeat:
		v.As = "seat"
		v.Seat = &inv
	case linksign.PurposeOrganiser:
		v.As = "organiser"
	default:
		v.As = "spectator"
	}
	for i, s := range rec.Seats {
		p := PlayerView{Index: i, Name: s.Name, Accepted: s.Accepted, Seat: s.Engine}
		if v.As == "organiser" || i == inv {
			p.Email = s.Email
		}
		v.Players = append(v.Players, p)
	}
	if rec.State == nil {
		return v, nil
	}
	g, err := a.svc.Engine(rec)
	if err != nil {
		return v, err
	}
	seat := engine.Spectator
	if inv >= 0 {
		seat = rec.Seats[inv].Engine
	}
	v.Game = g.View(seat)
	for _, s := range g.Owing() {
		for i, st := range rec.Seats {
			if st.Engine == s && st.Accepted {
				v.Owing = append(v.Owing, i)
			}
		}
	}
	return v, nil
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
	rd, err := a.authorize(r, token, purposes...)
	if err != nil {
		fail(w, r, err)
		return reader{}, nil, 0, false
	}
	rec, ver, err := a.svc.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		fail(w, r, err)
		return reader{}, nil, 0, false
	}
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
	rd, err := a.authorize(r, bearer(r), linksign.PurposeInvite)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	tok, err := a.svc.Accept(r.Context(), r.PathValue("id"), rd.claims.Seat)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"seat_token": tok, "seat": rd.claims.Seat})
}

func (a *api) start(w http.ResponseWriter, r *http.Request) {
	if _, err := a.authorize(r, bearer(r), linksign.PurposeOrganiser); err != nil {
		a.fail(w, r, err)
		return
	}
	if err := a.svc.Start(r.Context(), r.PathValue("id")); err != nil {
		a.fail(w, r, err)
		return
	}
	a.view(w, r)
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
	rd, err := a.authorize(r, bearer(r), linksign.PurposeSeat)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	var req ActRequest
	if err := decodeJSON(r, &req); err != nil {
		a.fail(w, r, err)
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

// LogEntry is one command of the log as a reader may see it.
type LogEntry struct {
	N      int            `json:"n"`
	Seat   int            `json:"seat"`
	Action engine.Action  `json:"action"`
	At     int64          `json:"at"`
	Events []engine.Event `json:"events"`
	// By says, to the seat that made the command only, that its standing
	// orders ("order") or a missed deadline ("deadline") played it.
	By string `json:"by,omitempty"`
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
	seat := engine.Spectator
	if inv := rd.seatIndex(); inv >= 0 {
		seat = rec.Seats[inv].Engine
	}
	pr := present.For(rec.Kind)
	out := make([]LogEntry, 0, len(entries))
	for _, e := range entries {
		le := LogEntry{N: e.N, Seat: e.Seat, Action: e.Action, At: e.At, Events: []engine.Event{}}
		for _, ev := range e.Events {
			if ev.VisibleTo(seat) {
				le.Events = append(le.Events, ev)
			}
		}
		if e.Seat == seat && e.Delegated() {
			le.By = e.By
		}
		if views.Hidden(pr, e, seat) {
			le.Action = engine.Action{Type: e.Action.Type} // a sealed bid's amount stays secret (P-3)
		}
		out = append(out, le)
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": rec.ID, "kind": rec.Kind, "log": out})
}

func (a *api) result(w http.ResponseWriter, r *http.Request) {
	_, rec, _, ok := a.loadGame(w, r, a.fail, bearer(r), anyReader...)
	if !ok {
		return
	}
	g, err := a.svc.Engine(rec)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	out := map[string]any{"id": rec.ID, "over": g.Over(), "moves": rec.Moves, "scores": g.Score(), "seed_sha256": rec.SeedCommitment()}
	if seed := rec.RevealedSeed(); seed != "" {
		out["seed"] = seed
	}
	writeJSON(w, http.StatusOK, out)
}
