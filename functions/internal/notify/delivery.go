package notify

import (
	"context"

	"github.com/pbmgames/pbm/infra/store"
)

// The delivery rules: which mail a player's standing lets through, and
// what a refusal that retrying cannot cure does. Every mail the service
// sends — a game's outbox, the digest, table talk, a league's letters —
// is decided here, in one place.

// Class is what a mail is to its recipient, which decides whether their
// settings let it through (Route).
type Class int

const (
	// ClassAct asks the player to act (a turn, a decision, an invitation,
	// a deal, a league round's table): only a suppressed address stops
	// it, as nothing else may without leaving the game.
	ClassAct Class = iota
	// ClassGame tells of a game: none for an unsubscribed player or one
	// who takes only their turns; the daily digest for one who asked.
	ClassGame
	// ClassDigest is the daily digest itself: none for an unsubscribed
	// player or one who takes only their turns.
	ClassDigest
	// ClassTalk is table talk: none for an unsubscribed player.
	ClassTalk
	// ClassLeague is a league's other letters: none for an unsubscribed
	// player.
	ClassLeague
)

type verdict int

const (
	deliver    verdict = iota
	skip               // the player does not want this kind of mail
	queue              // the player wants it in the daily digest
	suppressed         // the address bounced or complained
)

// Route decides a mail of class c to player p.
func Route(p store.Player, c Class) verdict {
	switch {
	case p.Suppressed:
		return suppressed
	case c == ClassAct:
		return deliver
	case p.Unsubscribed:
		return skip
	case (c == ClassGame || c == ClassDigest) && p.Mail == store.MailTurns:
		return skip
	case c == ClassGame && p.Mail == store.MailDigest:
		return queue
	}
	return deliver
}

// Delivers tells whether a mail of class c goes to p now.
func Delivers(p store.Player, c Class) bool { return Route(p, c) == deliver }

// send sends msg. A refusal that retrying cannot cure (Permanent) drops
// it, logged as what with args, and answers dropped; any other error is
// returned to be retried.
func (n *Notifier) send(ctx context.Context, msg Message, what string, args ...any) (dropped bool, err error) {
	err = n.Sender.Send(ctx, msg)
	if err != nil && n.Permanent != nil && n.Permanent(err) {
		n.Log.ErrorContext(ctx, what+" refused for good: dropped", append(args, "err", err)...)
		return true, nil
	}
	return false, err
}

// SendLeague sends a league's letter msg to a player, unless their
// standing refuses its class (a round's table asks them to act, ClassAct;
// the others are ClassLeague), by the delivery rules; refused for good,
// it is dropped.
func (n *Notifier) SendLeague(ctx context.Context, msg Message, c Class, league string) error {
	if n.Players != nil {
		p, err := n.Players.GetPlayer(ctx, msg.To)
		if err == nil && !Delivers(p, c) {
			return nil
		}
	}
	_, err := n.send(ctx, msg, "league mail", "league", league)
	return err
}
