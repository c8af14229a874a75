package notify

import (
	"context"
	"errors"
	"fmt"

	"github.com/pbmgames/pbm/infra/store"
)

// SignInComposer writes the mail of a sign-in link (issue 17); the
// package compose's Composer is one.
type SignInComposer interface {
	SignIn(ctx context.Context, p store.Player, lang, token string) (Message, error)
}

// SendSignIn mails a sign-in link to the player of email, who asked for
// one on the sign-in page in lang, if the address is a player's and may
// be mailed; to any other address it sends nothing, so that the form
// cannot be used to mail strangers. It runs apart from the page's answer
// (service.Config.SignIn; the table's stream in AWS), which is the same
// either way.
func (n *Notifier) SendSignIn(ctx context.Context, email, lang string) error {
	sc, ok := n.Composer.(SignInComposer)
	if !ok {
		return errors.New("sign-in: the composer writes no sign-in mail")
	}
	token, p, ok, err := n.Service.IssueSignIn(ctx, email)
	if err != nil {
		return fmt.Errorf("sign-in: %w", err)
	}
	if !ok {
		n.Log.InfoContext(ctx, "sign-in asked for an address that gets none")
		return nil
	}
	msg, err := sc.SignIn(ctx, p, lang, token)
	if err != nil {
		return fmt.Errorf("sign-in: %w", err)
	}
	if err := n.Sender.Send(ctx, msg); err != nil {
		return fmt.Errorf("sign-in: send: %w", err)
	}
	n.Log.InfoContext(ctx, "sign-in link sent")
	return nil
}
