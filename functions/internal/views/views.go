// Package views builds the read models of a game: what a page or an API
// answer shows a reader (P-3), from the service's record and the engine's
// game. It knows nothing of HTTP; httpapi decodes a request, authorises
// its reader, asks the service and views, and renders what they give.
package views

import "github.com/pbmgames/pbm/functions/internal/service"

// SeatNames lists the players' names by engine seat.
func SeatNames(rec *service.Record, seats int) []string {
	names := make([]string, seats)
	for i := range names {
		names[i] = "—"
	}
	for _, s := range rec.Seats {
		if s.Accepted && s.Engine >= 0 && s.Engine < seats {
			names[s.Engine] = s.Name
		}
	}
	return names
}

// NameFunc names an engine seat, "—" for none.
func NameFunc(names []string) func(int) string {
	return func(s int) string {
		if s >= 0 && s < len(names) {
			return names[s]
		}
		return "—"
	}
}
