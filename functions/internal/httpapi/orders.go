package httpapi

import (
	"net/http"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/infra/linksign"
)

// OrdersView is a seat's standing orders beside the ones its game
// proposes. Only the seat's own token reads or sets them: they are never
// shown to another seat, the organiser or spectators.
type OrdersView struct {
	Specs  []engine.OrderSpec `json:"specs"`
	Orders engine.Orders      `json:"orders"`
}

// OrdersRequest replaces a seat's standing orders.
type OrdersRequest struct {
	Orders engine.Orders `json:"orders"`
}

func (a *api) getOrders(w http.ResponseWriter, r *http.Request) {
	rd, rec, _, ok := a.loadGame(w, r, a.fail, bearer(r), linksign.PurposeSeat)
	if !ok {
		return
	}
	specs, err := a.svc.OrderSpecs(rec)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, OrdersView{Specs: specs, Orders: rec.SeatOrders(rd.claims.Seat)})
}

func (a *api) putOrders(w http.ResponseWriter, r *http.Request) {
	var req OrdersRequest
	rd, ok := a.seatRequest(w, r, &req)
	if !ok {
		return
	}
	if err := a.svc.SetOrders(r.Context(), r.PathValue("id"), rd.claims.Seat, req.Orders); err != nil {
		a.fail(w, r, err)
		return
	}
	a.getOrders(w, r)
}
