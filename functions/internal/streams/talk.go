package streams

import (
	"context"
	"log/slog"
	"strings"

	"github.com/aws/aws-lambda-go/events"
)

// TalkPrefix begins the sk of a message of the table talk, written once
// in its game's partition ("GAME#<id>", "TALK#<key>"; dynamostore's talk
// items): its insertion is a post, which the notifier mails to the seats
// that asked for each message (issue 17). template.yaml's stream filter
// matches the same.
const TalkPrefix = "TALK#"

// TalkPosted returns the game and key of the message a record posts (a
// talk item inserted), or "", "" for any other record: a message hidden
// or shown again (MODIFY) is no new post.
func TalkPosted(r events.DynamoDBEventRecord) (game, key string) {
	game, key, ok := insertedInGame(r, TalkPrefix)
	if !ok || key == "" {
		return "", ""
	}
	return game, key
}

// insertedInGame returns the game and the rest of the sk after prefix of
// an item a record inserts in a game's partition ("GAME#<id>", sk
// beginning with prefix); ok is false for any other record (a MODIFY or
// REMOVE, another partition or sk, keys that are not strings).
func insertedInGame(r events.DynamoDBEventRecord, prefix string) (game, rest string, ok bool) {
	if r.EventName != string(events.DynamoDBOperationTypeInsert) {
		return "", "", false
	}
	pk, pok := r.Change.Keys[AttrPK]
	sk, sok := r.Change.Keys[AttrSK]
	if !pok || !sok || pk.DataType() != events.DataTypeString || sk.DataType() != events.DataTypeString {
		return "", "", false
	}
	game, gok := strings.CutPrefix(pk.String(), GamePrefix)
	rest, rok := strings.CutPrefix(sk.String(), prefix)
	if !gok || !rok || game == "" {
		return "", "", false
	}
	return game, rest, true
}

// TalkSender mails a message just posted to the seats that asked for
// each one: notify.Notifier.SendTalk.
type TalkSender func(ctx context.Context, game, key string) error

// SendTalks mails the messages a batch posts. A talk mail that fails is
// logged and not retried, like a sign-in mail: the message is on the
// board and in the seat's next mail, and a retried batch would mail the
// others twice.
func SendTalks(ctx context.Context, ev events.DynamoDBEvent, send TalkSender, log *slog.Logger) {
	for _, r := range ev.Records {
		if game, key := TalkPosted(r); game != "" {
			if err := send(ctx, game, key); err != nil {
				log.ErrorContext(ctx, "talk mail failed", "seq", r.Change.SequenceNumber, "err", err)
			}
		}
	}
}
