// Package streams turns a batch of the table's DynamoDB stream records into
// drains of the games whose outbox holds unsent mail (the notify Lambda,
// NotifyFunction in template.yaml), reporting the games that failed as
// partial batch failures so that Lambda retries them. The records carry
// the game item as the commit wrote it (NEW_IMAGE), which the notifier
// drains without reading the game again (HandleImages).
package streams

import (
	"context"
	"errors"
	"log/slog"
	"slices"
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
	AttrVer    = "ver"
	AttrBody   = "body"
	AttrUpd    = "upd"
	GamePrefix = "GAME#" // pk of a game item: "GAME#<id>"
	GameSK     = "GAME"  // sk of a game item
)

// GameID returns the id of the game whose item a record carries with a
// pending outbox, or "" for any other record: chunks and players, deletions
// (no new image), games whose outbox was emptied.
func GameID(r events.DynamoDBEventRecord) string {
	if _, ok := r.Change.NewImage[AttrOutbox]; !ok {
		return ""
	}
	return written(r)
}

// written returns the id of the game whose item a record carries as
// written (with a new image, pending mail or not), or "" for any other.
func written(r events.DynamoDBEventRecord) string {
	img := r.Change.NewImage
	if img == nil || r.EventName == string(events.DynamoDBOperationTypeRemove) {
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

// Image is the game item a record carries with a pending outbox, as its
// new image has it (GameID says which records those are). A record whose
// image lacks the version or the body (a stream of keys only) gives the
// game's id alone, Body nil: the game must then be read.
func Image(r events.DynamoDBEventRecord) (store.Game, bool) {
	id := GameID(r)
	if id == "" {
		return store.Game{}, false
	}
	g := store.Game{ID: id, OutboxPending: true}
	img := r.Change.NewImage
	ver, vok := img[AttrVer]
	body, bok := img[AttrBody]
	if !vok || ver.DataType() != events.DataTypeNumber || !bok || body.DataType() != events.DataTypeBinary {
		return g, true
	}
	v, err := ver.Int64()
	if err != nil || v < 1 {
		return g, true
	}
	g.Version, g.Body = v, body.Binary()
	if upd, ok := img[AttrUpd]; ok && upd.DataType() == events.DataTypeNumber {
		g.UpdatedAt, _ = upd.Int64()
	}
	return g, true
}

// Drainer sends a game's pending mail: notify.Notifier.Drain.
type Drainer func(ctx context.Context, gameID string) error

// ImageDrainer sends the pending mail of a game as a record's image has
// it: notify.Notifier.DrainImage.
type ImageDrainer func(ctx context.Context, g store.Game) error

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
	return handle(ctx, ev, func(ctx context.Context, g store.Game) error { return drain(ctx, g.ID) }, false, log)
}

// HandleImages is Handle draining each game as the newest of its records
// has it (Image), without reading it again: a game's records come in the
// order of its writes, and its newest version holds all the mail still
// unsent that the older ones held. A game whose newest record in the
// batch has no pending mail (the sweep marked it sent on the game) is not
// drained.
func HandleImages(ctx context.Context, ev events.DynamoDBEvent, drain ImageDrainer, log *slog.Logger) (events.DynamoDBEventResponse, error) {
	return handle(ctx, ev, drain, true, log)
}

func handle(ctx context.Context, ev events.DynamoDBEvent, drain ImageDrainer, newest bool, log *slog.Logger) (events.DynamoDBEventResponse, error) {
	type game struct {
		seq     string
		img     store.Game
		pending bool // the newest record read has mail pending
	}
	var games []*game
	seen := map[string]*game{}
	for _, r := range ev.Records {
		img, ok := Image(r)
		if g := seen[written(r)]; g != nil && newest {
			g.img, g.pending = img, ok
			continue
		}
		if !ok {
			log.DebugContext(ctx, "record skipped", "event", r.EventName, "seq", r.Change.SequenceNumber)
			continue
		}
		if seen[img.ID] != nil {
			continue
		}
		g := &game{seq: r.Change.SequenceNumber, img: img, pending: true}
		seen[img.ID] = g
		games = append(games, g)
	}
	games = slices.DeleteFunc(games, func(g *game) bool { return !g.pending })
	resp := events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{}}
	drained := 0
	for _, g := range games {
		if err := ctx.Err(); err != nil {
			log.WarnContext(ctx, "drain not tried", "game", g.img.ID, "err", err)
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: g.seq})
			continue
		}
		err := drain(ctx, g.img)
		switch {
		case err == nil:
			drained++
		case errors.Is(err, store.ErrNotFound):
			log.WarnContext(ctx, "drain: no such game", "game", g.img.ID, "err", err)
		default:
			log.ErrorContext(ctx, "drain failed", "game", g.img.ID, "seq", g.seq, "err", err)
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: g.seq})
		}
	}
	log.InfoContext(ctx, "stream batch", "records", len(ev.Records), "games", len(games),
		"drained", drained, "failed", len(resp.BatchItemFailures))
	return resp, nil
}
