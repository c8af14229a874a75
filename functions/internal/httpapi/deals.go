package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/templates"
)

// Deals that do not stall a turn (issue 23): a seat reads the deals open
// to it and from it, answers, counters, and prepares offers for its next
// turn — by the API (GET/POST /api/games/{id}/deals…, answers as actions)
// and on its deals page (/g/{id}/deals). Only the seat's own token opens
// them: its prepared offers are its own, as its orders are.

// DealsView is what a seat sees of deals.
type DealsView struct {
	// ToMe and FromMe are the open deals it answers and it proposed.
	ToMe   []DealView `json:"to_me"`
	FromMe []DealView `json:"from_me"`
	// Prepared are the offers it prepared, made at the start of its next
	// turn; Preparable those it may prepare now (amounts as ranges);
	// Unmade those it prepared that could not be made.
	Prepared   []engine.Action `json:"prepared"`
	Preparable []engine.Choice `json:"preparable"`
	Unmade     []engine.Action `json:"unmade,omitempty"`
}

// DealView is one open deal, in words and by when it is answered (at
// that time, it is declined).
type DealView struct {
	engine.Deal
	Text string `json:"text"`
	Due  int64  `json:"due,omitempty"` // seconds since the epoch
}

// PrepareRequest prepares an offer, or withdraws a prepared one.
type PrepareRequest struct {
	Offer engine.Action `json:"offer"`
}

// CounterRequest declines a deal and prepares a counter-offer in its
// place, once: Key as for an action.
type CounterRequest struct {
	Deal  int           `json:"deal"`
	Offer engine.Action `json:"offer"`
	Key   string        `json:"key"`
}

// dealsView is the deals of the reader's seat in rec.
func (a *api) dealsView(r *http.Request, rec *service.Record, invite int) (DealsView, error) {
	var g engine.Game
	if rec.Status == service.StatusPlaying || rec.Status == service.StatusOver {
		var err error
		if g, err = a.svc.Engine(rec); err != nil {
			return DealsView{}, err
		}
	}
	d := rec.Deals(g, invite)
	l := lang(r)
	out := DealsView{Prepared: orEmpty(d.Prepared), Preparable: orEmpty(d.Preparable), Unmade: d.Unmade, ToMe: []DealView{}, FromMe: []DealView{}}
	if g == nil {
		return out, nil
	}
	pr := a.games.For(rec.Kind)
	name := views.NameFunc(views.SeatNames(rec, g.Seats()))
	seat := rec.Seats[invite].Engine
	for _, x := range d.ToMe {
		out.ToMe = append(out.ToMe, DealView{Deal: x, Text: present.DealText(l, pr, x, seat, name), Due: d.Due[x.ID]})
	}
	for _, x := range d.FromMe {
		out.FromMe = append(out.FromMe, DealView{Deal: x, Text: present.DealText(l, pr, x, seat, name), Due: d.Due[x.ID]})
	}
	return out, nil
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func (a *api) getDeals(w http.ResponseWriter, r *http.Request) {
	rd, rec, _, ok := a.loadGame(w, r, a.fail, bearer(r), linksign.PurposeSeat)
	if !ok {
		return
	}
	v, err := a.dealsView(r, rec, rd.claims.Seat)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// changeDeals answers a seat's JSON request (a T) to change its deals:
// change makes the change, and the seat's deals follow (getDeals).
func changeDeals[T any](a *api, w http.ResponseWriter, r *http.Request, change func(ctx context.Context, id string, seat int, req T) error) {
	var req T
	rd, ok := a.seatRequest(w, r, &req)
	if !ok {
		return
	}
	if err := change(r.Context(), r.PathValue("id"), rd.claims.Seat, req); err != nil {
		a.fail(w, r, err)
		return
	}
	a.getDeals(w, r)
}

func (a *api) prepareOffer(w http.ResponseWriter, r *http.Request) {
	changeDeals(a, w, r, func(ctx context.Context, id string, seat int, req PrepareRequest) error {
		return a.svc.Prepare(ctx, id, seat, req.Offer)
	})
}

func (a *api) withdrawOffer(w http.ResponseWriter, r *http.Request) {
	changeDeals(a, w, r, func(ctx context.Context, id string, seat int, req PrepareRequest) error {
		return a.svc.Withdraw(ctx, id, seat, req.Offer)
	})
}

func (a *api) counterOffer(w http.ResponseWriter, r *http.Request) {
	changeDeals(a, w, r, func(ctx context.Context, id string, seat int, req CounterRequest) error {
		_, err := a.svc.Counter(ctx, id, seat, req.Deal, req.Offer, req.Key)
		return err
	})
}

// dealsData is the seat's deals page.
type dealsData struct {
	gameHead
	Name, Notice, Error string
	Over                bool
	ToMe, FromMe        []dealRow
	Prepared, Unmade    []dealRow
	// Forms prepare an offer: one a kind of offer, its alternatives in a
	// list; Counters lists the deals open to the seat that preparing an
	// offer may decline in the same step (a counter-offer).
	Forms    []prepareForm
	Counters []dealRow
	// Key makes each answer and counter idempotent (a form sent twice).
	Key string
}

// dealRow is a deal, or an offer prepared, in words, with what a form
// sends back for it.
type dealRow struct {
	ID    int
	Text  string
	Due   *views.Deadline
	Offer string // a prepared offer, as JSON, for the withdraw form
	Hold  bool   // a purchase kept for later: answered, never countered
}

// prepareForm is one kind of offer the seat may prepare: the offers of
// that kind it may make, each in the list by what tells it from the others
// (views.AltValue), and, for a priced kind, the amount's range.
type prepareForm struct {
	Type, Title    string
	Alts           []views.Alt
	Ranged         bool
	Min, Max, Step int64
}

func (a *api) dealsPage(w http.ResponseWriter, r *http.Request) {
	notice := ""
	if r.URL.Query().Get("done") == "1" {
		notice = templates.T(lang(r), "saved")
	}
	a.renderDeals(w, r, r.URL.Query().Get("t"), http.StatusOK, notice, "")
}

// renderDeals draws the deals page of the seat of token.
func (a *api) renderDeals(w http.ResponseWriter, r *http.Request, token string, status int, notice, errMsg string) {
	h, rd, rec, _, ok := a.loadGamePage(w, r, token, "deals", linksign.PurposeSeat)
	if !ok {
		return
	}
	l := lang(r)
	inv := rd.claims.Seat // in range: loadGame held the token to the record's seats (HasSeat)
	v, err := a.dealsView(r, rec, inv)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	d := dealsData{gameHead: h, Name: rec.Seats[inv].Name,
		Notice: notice, Error: errMsg, Over: rec.Status != service.StatusPlaying, Key: newFormKey()}
	d.retitle(r, templates.T(l, "deals")+" · "+d.GameName, "/g/"+rec.ID+"/deals", token)
	now := a.now()
	for _, x := range v.ToMe {
		row := dealRow{ID: x.ID, Text: x.Text, Hold: x.From == engine.Bank}
		if x.Due > 0 {
			row.Due = views.NewDeadline(l, x.Due, now)
		}
		d.ToMe = append(d.ToMe, row)
		if !row.Hold {
			d.Counters = append(d.Counters, row)
		}
	}
	for _, x := range v.FromMe {
		row := dealRow{ID: x.ID, Text: x.Text}
		if x.Due > 0 {
			row.Due = views.NewDeadline(l, x.Due, now)
		}
		d.FromMe = append(d.FromMe, row)
	}
	if !d.Over {
		pr := a.games.For(rec.Kind)
		g, err := a.svc.Engine(rec)
		if err != nil {
			a.pageError(w, r, err)
			return
		}
		name := views.NameFunc(views.SeatNames(rec, g.Seats()))
		for _, o := range v.Prepared {
			d.Prepared = append(d.Prepared, dealRow{Text: pr.Command(l, o, name), Offer: o.String()})
		}
		for _, o := range v.Unmade {
			d.Unmade = append(d.Unmade, dealRow{Text: pr.Command(l, o, name)})
		}
		d.Forms = prepareForms(l, pr, v.Preparable, name)
	}
	a.render(w, r, status, "deals.html", d)
}

// postDeals takes the deals page's forms: answer a deal (accept,
// decline), counter one, prepare an offer, withdraw a prepared one.
func (a *api) postDeals(w http.ResponseWriter, r *http.Request) {
	rd, token, ok := a.postedReader(w, r, linksign.PurposeSeat)
	if !ok {
		return
	}
	id, inv, l := r.PathValue("id"), rd.claims.Seat, lang(r)
	ctx := r.Context()
	deal, _ := strconv.Atoi(r.PostFormValue("deal"))
	key := r.PostFormValue("key")
	var err error
	switch r.PostFormValue("do") {
	case "accept":
		_, err = a.svc.Act(ctx, id, inv, engine.Action{Type: engine.AcceptDeal, Deal: deal}, key, service.Precondition{})
	case "decline":
		_, err = a.svc.Act(ctx, id, inv, engine.Action{Type: engine.DeclineDeal, Deal: deal}, key, service.Precondition{})
	case "prepare", "counter":
		var offer engine.Action
		if offer, err = formOffer(r); err == nil {
			if deal != 0 { // declined in the same step: a counter-offer
				_, err = a.svc.Counter(ctx, id, inv, deal, offer, key)
			} else {
				err = a.svc.Prepare(ctx, id, inv, offer)
			}
		}
	case "withdraw":
		var offer engine.Action
		if err = json.Unmarshal([]byte(r.PostFormValue("offer")), &offer); err == nil {
			err = a.svc.Withdraw(ctx, id, inv, offer)
		} else {
			err = service.Fail(service.CodeInvalid, err)
		}
	default:
		err = service.Fail(service.CodeInvalid, nil)
	}
	if err != nil {
		e, status := a.classify(r, err)
		a.renderDeals(w, r, token, status, "", e.Message(l))
		return
	}
	http.Redirect(w, r, pageLink("/g/"+id+"/deals", token, l, "done", "1"), http.StatusSeeOther)
}

// formOffer reads an offer from a deals form: its kind, the alternative
// picked in its list (views.AltValue) and, for a priced kind, the amount.
// The service checks it against what the engine lets the seat prepare.
func formOffer(r *http.Request) (engine.Action, error) {
	a := engine.Action{Type: r.PostFormValue("type")}
	if err := views.ParseAlt(r.PostFormValue("alt"), &a); err != nil {
		return engine.Action{}, service.Fail(service.CodeInvalid, err)
	}
	if s := strings.TrimSpace(r.PostFormValue("amount")); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return engine.Action{}, service.Fail(service.CodeInvalid, err)
		}
		a.Amount = n
	}
	return a, nil
}

// prepareForms groups the offers a seat may prepare by kind, in the
// engine's order: one form a kind, its offers in a list labelled with
// the cell and, where the other side differs, the other side's name.
func prepareForms(l string, pr present.Game, choices []engine.Choice, name func(int) string) []prepareForm {
	var out []prepareForm
	for _, c := range choices {
		i := slices.IndexFunc(out, func(f prepareForm) bool { return f.Type == c.Type })
		if i < 0 {
			out = append(out, prepareForm{Type: c.Type, Title: pr.Text(l, "prepare_"+c.Type), Ranged: c.Ranged(), Min: c.Min, Max: c.Max, Step: c.Step})
			i = len(out) - 1
		}
		f := &out[i]
		// The form's title says the kind: each offer is its cell (and a
		// swap's other cell) and the other side.
		label := pr.CellName(l, c.Cell)
		if !c.Ranged() && c.Amount != 0 && c.Good == "" {
			label += " ↔ " + pr.CellName(l, int(c.Amount))
		}
		label += " — " + name(c.Target)
		f.Alts = append(f.Alts, views.Alt{Value: views.AltValue(c), Label: label})
		if c.Ranged() {
			f.Min, f.Max = min(f.Min, c.Min), max(f.Max, c.Max)
		}
	}
	return out
}
