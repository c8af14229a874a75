package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/templates"
)

// orderRow is one standing order on the orders page.
type orderRow struct {
	Name, Label, Value string
	Flag, On           bool
	Min, Max           int64
}

// ordersData is the page where a seat sets its standing orders: only the
// seat's own token opens it.
type ordersData struct {
	gameHead
	Name, Notice, Error string
	Over                bool
	Count               int
	Rows                []orderRow
}

func (a *api) ordersPage(w http.ResponseWriter, r *http.Request) {
	notice := ""
	if r.URL.Query().Get("saved") == "1" {
		notice = templates.T(lang(r), "orders_saved")
	}
	a.renderOrders(w, r, r.URL.Query().Get("t"), http.StatusOK, notice, "", nil)
}

// renderOrders draws the orders page; shown, when not nil, replaces the
// stored orders in the form (a refused form keeps what was typed).
func (a *api) renderOrders(w http.ResponseWriter, r *http.Request, token string, status int, notice, errMsg string, shown engine.Orders) {
	h, rd, rec, _, ok := a.loadGamePage(w, r, token, "orders", linksign.PurposeSeat)
	if !ok {
		return
	}
	l := lang(r)
	inv := rd.claims.Seat // in range: loadGame held the token to the record's seats (HasSeat)
	specs, err := a.svc.OrderSpecs(rec)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	o := rec.SeatOrders(inv)
	if shown != nil {
		o = shown
	}
	d := ordersData{gameHead: h, Name: rec.Seats[inv].Name,
		Notice: notice, Error: errMsg, Over: rec.Status == service.StatusOver}
	for _, v := range rec.SeatOrders(inv) {
		if v != 0 { // an order of 0 plays nothing: not an order set
			d.Count++
		}
	}
	d.retitle(r, templates.T(l, "orders")+" · "+d.GameName, "/g/"+rec.ID+"/orders", token)
	if rd.claims.Version != 0 {
		// A mail's link acts for one position; the way back takes the
		// seat to where it is now, orders played included.
		fresh, err := a.svc.Token(linksign.PurposeSeat, rec.ID, inv, rec.LinkPosition(rec.Seats[inv].Engine), service.SeatTokenTTL)
		if err != nil {
			a.pageError(w, r, err)
			return
		}
		d.GameURL = pageLink("/g/"+rec.ID, fresh, l)
	}
	for _, s := range specs {
		row := orderRow{Name: s.Name, Label: a.games.For(rec.Kind).Text(l, "order_"+s.Name), Flag: s.Kind == engine.OrderFlag, Min: s.Min, Max: s.Max}
		if v := o[s.Name]; v != 0 { // 0 is off: left blank, not «accept any offer»
			row.On = true
			row.Value = strconv.FormatInt(v, 10)
		}
		d.Rows = append(d.Rows, row)
	}
	a.render(w, r, status, "orders.html", d)
}

// saveOrders takes the orders form: save what it says, fill in the
// game's sensible orders, or clear them all.
func (a *api) saveOrders(w http.ResponseWriter, r *http.Request) {
	rd, token, ok := a.postedReader(w, r, linksign.PurposeSeat)
	if !ok {
		return
	}
	rec, _, err := a.svc.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	specs, err := a.svc.OrderSpecs(rec)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	o := engine.Orders{}
	switch r.PostFormValue("do") {
	case "sensible":
		// Filled into the form, not saved: the player looks them over
		// and saves (issue 27).
		for k, v := range engine.SensibleOrders(specs) {
			if v == 0 {
				delete(o, k)
			} else {
				o[k] = v
			}
		}
		a.renderOrders(w, r, token, http.StatusOK, templates.T(lang(r), "orders_filled"), "", o)
		return
	case "clear":
	default:
		for _, s := range specs {
			v := strings.TrimSpace(r.PostFormValue("o_" + s.Name))
			if v == "" {
				continue
			}
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				e := service.Fail(service.CodeInvalid, err)
				a.renderOrders(w, r, token, http.StatusBadRequest, "", e.Message(lang(r))+" "+templates.T(lang(r), "order_"+s.Name), nil)
				return
			}
			if n == 0 {
				continue // an unticked box, or an amount of 0, is no order
			}
			o[s.Name] = n
		}
	}
	if err := a.svc.SetOrders(r.Context(), r.PathValue("id"), rd.claims.Seat, o); err != nil {
		e, status := a.classify(r, err)
		a.renderOrders(w, r, token, status, "", e.Message(lang(r)), o)
		return
	}
	http.Redirect(w, r, pageLink("/g/"+r.PathValue("id")+"/orders", token, lang(r), "saved", "1"), http.StatusSeeOther)
}
