package views

import (
	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// Reader is who a token says is reading a game: a seat's player, its
// organiser or a spectator. Every view is made for one reader (P-3).
type Reader struct {
	Role   string // seat, organiser or spectator
	Invite int    // the seat's invitation index; −1 for the others
}

// ReaderOf is the reader of a token's claims.
func ReaderOf(c linksign.Claims) Reader {
	switch c.Purpose {
	case linksign.PurposeSeat:
		return Reader{Role: "seat", Invite: c.Seat}
	case linksign.PurposeOrganiser:
		return Reader{Role: "organiser", Invite: -1}
	}
	return Reader{Role: "spectator", Invite: -1}
}

// Seat is the reader's engine seat in rec, engine.Spectator for a reader
// with none.
func (r Reader) Seat(rec *service.Record) int {
	if r.Invite >= 0 {
		return rec.Seats[r.Invite].Engine
	}
	return engine.Spectator
}
