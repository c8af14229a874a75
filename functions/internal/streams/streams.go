// Package streams turns a batch of the table's DynamoDB stream records into
// drains of the games whose outbox holds unsent mail (the notify Lambda,
// NotifyFunction in template.yaml), reporting the games that failed as
// partial batch failures so that Lambda retries them.
package streams

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/aws/aws-lambda-go/events"

	"github.com/pbmgames/pbm/infra/store"
)

// The game item's key and outbox attribute, as dynamostore writes them;
// template.yaml's stream filter matches the same (functions/template_test.go
// checks it).
const (
	AttrPK     = "pk"
	AttrSK     = "sk"
	AttrOutbox = "outbox"
	GamePrefix = "GAME#" // pk of a game item: "GAME#<id>"
	GameSK     = "GAME"  // sk of a game item
)

// GameID returns the id of the game whose item a record carries with a
// pending outbox, or "" for any other record: chunks and players, deletions
// (no new image), games whose outbox was emptied.
func GameID(r events.DynamoDBEventRecord) string {
	img := r.Change.NewImage
	if img == nil || r.EventName == string(events.DynamoDBOperationTypeRemove) {
		return ""
	}
	if _, ok := img[AttrOutbox]; !ok {
		return ""
	}
	key := func(name string) string {
		v, ok := r.Change.Keys[name]
		if !ok {
			v, ok = img[name]
		}
		if !ok || v.DataType() != events.DataTypeString {
			return ""
		}
		return v.String()
	}
	if key(AttrSK) != GameSK {
		return ""
	}
	id, ok := strings.CutPrefix(key(AttrPK), GamePrefix)
	if !ok {
		return ""
	}
	return id
}

// Drainer sends a game's pending mail: notify.Notifier.Drain.
type Drainer func(ctx context.Context, gameID string) error

// Handle drains each game the batch names once, in the order of its first
// record, and returns as batch item failures the sequence number of the
// first record of each game whose drain failed. Lambda then retries the
// batch from the lowest of them (ReportBatchItemFailures); the games
// drained before it are not sent again. A game that is gone
// (store.ErrNotFound) is not retried. Once ctx is done the games left are
// reported failed without being tried.
//
// The error is always nil: a failure of the whole batch is reported as a
// failure of its first game, which retries it all the same.
func Handle(ctx context.Context, ev events.DynamoDBEvent, drain Drainer, log *slog.Logger) (events.DynamoDBEventResponse, error) {
	type game struct{ id, seq string }
	var games []game
	seen := map[string]bool{}
	for _, r := range ev.Records {
		id := GameID(r)
		if id == "" {
			log.DebugContext(ctx, "record skipped", "event", r.EventName, "seq", r.Change.SequenceNumber)
			continue
		}
		if !seen[id] {
			seen[id] = true
			games = append(games, game{id, r.Change.SequenceNumber})
		}
	}
	resp := events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{}}
	drained := 0
	for _, g := range games {
		if err := ctx.Err(); err != nil {
			log.WarnContext(ctx, "drain not tried", "game", g.id, "err", err)
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: g.seq})
			continue
		}
		err := drain(ctx, g.id)
		switch {
		case err == nil:
			drained++
		case errors.Is(err, store.ErrNotFound):
			log.WarnContext(ctx, "drain: no such game", "game", g.id, "err", err)
		default:
			log.ErrorContext(ctx, "drain failed", "game", g.id, "seq", g.seq, "err", err)
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: g.seq})
		}
	}
	log.InfoContext(ctx, "stream batch", "records", len(ev.Records), "games", len(games),
		"drained", drained, "failed", len(resp.BatchItemFailures))
	return resp, nil
}
