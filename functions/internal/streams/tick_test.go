package streams_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/pbmgames/pbm/functions/internal/streams"
)

// TestTickRequested: a tick request inserted asks to tick its game; the
// same request written again, its expiry, the game item and other items
// of the game's partition do not. Ticks ticks each game asked once a
// batch, all at once.
func TestTickRequested(t *testing.T) {
	cases := []struct {
		event, pk, sk, want string
	}{
		{"INSERT", "GAME#g1", "TICK#001764590400", "g1"},
		{"INSERT", "GAME#g1", "TICK#001764594000", "g1"}, // a later wake of the same game
		{"INSERT", "GAME#g2", "TICK#001764590400", "g2"},
		{"MODIFY", "GAME#g3", "TICK#001764590400", ""},
		{"REMOVE", "GAME#g3", "TICK#001764590400", ""},
		{"INSERT", "GAME#g3", "GAME", ""},
		{"INSERT", "GAME#g3", "TALK#0001-aa", ""},
		{"INSERT", "LEAGUE#l", "TICK#001764590400", ""},
		{"INSERT", "GAME#", "TICK#001764590400", ""},
	}
	var batch events.DynamoDBEvent
	for _, c := range cases {
		r := keysRecord(c.event, c.pk, c.sk)
		if got := streams.TickRequested(r); got != c.want {
			t.Errorf("%s %s %s: %q, want %q", c.event, c.pk, c.sk, got, c.want)
		}
		batch.Records = append(batch.Records, r)
	}
	var ticked [][]string
	streams.Ticks(context.Background(), batch, func(_ context.Context, games []string) error {
		ticked = append(ticked, games)
		return errors.New("throttled") // logged, not retried
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if len(ticked) != 1 || !slices.Equal(ticked[0], []string{"g1", "g2"}) {
		t.Errorf("Ticks ticked %v, want g1 and g2 once each, at once", ticked)
	}
	streams.Ticks(context.Background(), events.DynamoDBEvent{Records: batch.Records[3:]}, func(_ context.Context, games []string) error {
		t.Errorf("a batch with no request ticked %v", games)
		return nil
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// keysRecord is a record of eventName carrying only the item's keys, as
// a stream of KEYS_ONLY would.
func keysRecord(eventName, pk, sk string) events.DynamoDBEventRecord {
	return events.DynamoDBEventRecord{EventName: eventName, Change: events.DynamoDBStreamRecord{
		Keys: map[string]events.DynamoDBAttributeValue{"pk": events.NewStringAttribute(pk), "sk": events.NewStringAttribute(sk)}}}
}
