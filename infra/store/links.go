package store

import "context"

// Access is what a player's personal links answer to (issue 17): the
// opaque id their "my games" and sign-in links carry instead of their
// address, keyed by that id. Body is opaque to the store: the service's
// encoding of the address and of the links sent (sign-in links,
// sessions), a few hundred bytes at most.
type Access struct {
	ID      string
	Version int64 // 1 after the first write; each write adds 1
	Body    []byte
}

// LinkStore keeps players' personal links. Every method is safe for
// concurrent use. The player item keeps only the id and the generation
// (Player.LinkID, Player.LinkGen), which the mails read with the player
// item they read anyway; the rest lives in the Access item, read when a
// link is used.
type LinkStore interface {
	// GetAccess reads an access item with a strongly consistent read;
	// ErrNotFound if there is none.
	GetAccess(ctx context.Context, id string) (Access, error)
	// PutAccess writes a as version prev+1 in one conditional write: it
	// succeeds only if the stored version is prev (prev 0: the item must
	// not exist yet), and fails with ErrConflict otherwise, changing
	// nothing. It returns the written version.
	PutAccess(ctx context.Context, a Access, prev int64) (int64, error)
	// SetPlayerLinkID gives the player of email the link id id unless it
	// has one already, in one write, creating the player if needed; it
	// returns the id the player has after the write (id, or the earlier
	// one: of racing calls the first wins).
	SetPlayerLinkID(ctx context.Context, email, id string, at int64) (string, error)
	// BumpLinkGen adds one to the player's link generation in one
	// atomic write, creating the player if needed, and returns the new
	// generation: every link issued under an older one stops working.
	BumpLinkGen(ctx context.Context, email string, at int64) (int64, error)
}
