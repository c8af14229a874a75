package streams

import (
	"context"
	"log/slog"
	"strings"

	"github.com/aws/aws-lambda-go/events"
)

// SignInPrefix begins the pk of the counter of sign-in links asked for
// an address: "GUARD#signin/addr/<email>/3600/<hour>" (service.AskSignIn,
// dynamostore's guard items). Each write of such a counter is one request
// the page admitted, for a player's address or a stranger's alike: the
// notifier, not the page, tells them apart and mails the players.
// template.yaml's stream filter matches the same.
const SignInPrefix = "GUARD#signin/addr/"

// SignInAddress returns the address a record asks a sign-in link for (a
// sign-in counter created or counted up), or "" for any other record.
func SignInAddress(r events.DynamoDBEventRecord) string {
	if r.EventName != string(events.DynamoDBOperationTypeInsert) && r.EventName != string(events.DynamoDBOperationTypeModify) {
		return ""
	}
	v, ok := r.Change.Keys[AttrPK]
	if !ok || v.DataType() != events.DataTypeString {
		return ""
	}
	rest, ok := strings.CutPrefix(v.String(), SignInPrefix)
	if !ok {
		return ""
	}
	// The address may hold a "/": the window's two parts are cut from
	// the end.
	for range 2 {
		i := strings.LastIndexByte(rest, '/')
		if i <= 0 {
			return ""
		}
		rest = rest[:i]
	}
	return rest
}

// SignInSender mails a sign-in link to an address, if it is a player's:
// notify.Notifier.SendSignIn, in the player's language.
type SignInSender func(ctx context.Context, email string) error

// SendSignIns sends the sign-in links a batch asks for; the notifier
// then drains the batch's games (HandleImages). A sign-in mail that fails
// is logged and not retried: whoever asked can ask again, and a retried
// batch would mail the others twice.
func SendSignIns(ctx context.Context, ev events.DynamoDBEvent, signIn SignInSender, log *slog.Logger) {
	for _, r := range ev.Records {
		if email := SignInAddress(r); email != "" {
			if err := signIn(ctx, email); err != nil {
				log.ErrorContext(ctx, "sign-in mail failed", "seq", r.Change.SequenceNumber, "err", err)
			}
		}
	}
}
