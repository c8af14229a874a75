package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/pbmgames/pbm/functions/internal/lengths"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// Lengths answers GET /api/lengths: the lengths offered for a game at a
// seat count, deadline and options, each with the calendar simulator's
// estimate of the turns each player plays and the days it takes, and what
// the estimates assume of the players.
type Lengths struct {
	Kind          string             `json:"kind"`
	Seats         int                `json:"seats"`
	DeadlineHours int                `json:"deadline_hours"`
	Lengths       []lengths.Estimate `json:"lengths"`
	AssumesRU     string             `json:"assumes_ru"`
	AssumesEN     string             `json:"assumes_en"`
}

func (a *api) lengths(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	out := Lengths{Kind: q.Get("kind"), DeadlineHours: service.DefaultDeadlineHours}
	bad := func(ru, en string, cause error) {
		a.fail(w, r, &service.Error{Code: service.CodeInvalid, RU: ru, EN: en, Cause: cause})
	}
	reg := a.games.Engines()
	info, ok := reg.Lookup(out.Kind)
	if !ok {
		bad("Неизвестная игра.", "Unknown game.", fmt.Errorf("kind %q", out.Kind))
		return
	}
	seats, err := strconv.Atoi(q.Get("seats"))
	if err != nil || seats < info.MinSeats || seats > info.MaxSeats {
		bad(fmt.Sprintf("seats: от %d до %d.", info.MinSeats, info.MaxSeats), fmt.Sprintf("seats must be %d to %d.", info.MinSeats, info.MaxSeats), err)
		return
	}
	out.Seats = seats
	if v := q.Get("deadline_hours"); v != "" {
		h, err := strconv.Atoi(v)
		if err != nil || h < 1 || h > service.MaxDeadlineHours {
			bad(fmt.Sprintf("deadline_hours: от 1 до %d.", service.MaxDeadlineHours), fmt.Sprintf("deadline_hours must be 1 to %d.", service.MaxDeadlineHours), err)
			return
		}
		out.DeadlineHours = h
	}
	opts := json.RawMessage(q.Get("options"))
	if len(opts) == 0 {
		opts = nil
	}
	// The engine says which options it takes, as when a game is created.
	if _, err := reg.New(out.Kind, reg.CurrentRules(out.Kind), opts, seats, [32]byte{}); err != nil {
		a.fail(w, r, err)
		return
	}
	if out.Lengths, err = lengths.For(reg, out.Kind, opts, seats, out.DeadlineHours); err != nil {
		a.fail(w, r, err)
		return
	}
	if out.Lengths == nil {
		out.Lengths = []lengths.Estimate{}
	}
	d, err := lengths.Current()
	if err != nil {
		a.fail(w, r, err)
		return
	}
	out.AssumesRU, out.AssumesEN = d.Assume.Text("ru"), d.Assume.Text("en")
	w.Header().Set("Cache-Control", "public, max-age=300")
	writeJSON(w, http.StatusOK, out)
}
