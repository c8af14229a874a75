package streams

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/pbmgames/pbm/infra/store"
)

// loadBatch reads testdata/batch.json, a stream batch as Lambda delivers it:
// two games with pending mail (one of them twice), a chunk, a game whose
// outbox was emptied, a player, a TTL deletion and a third game.
func loadBatch(t *testing.T) events.DynamoDBEvent {
	t.Helper()
	data, err := os.ReadFile("testdata/batch.json")
	if err != nil {
		t.Fatal(err)
	}
	var ev events.DynamoDBEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

func TestGameID(t *testing.T) {
	ev := loadBatch(t)
	var got []string
	for _, r := range ev.Records {
		got = append(got, GameID(r))
	}
	want := []string{"g7Hq2x", "", "Zk4pQ1", "g7Hq2x", "", "", "", "Mm9rT3"}
	if !slices.Equal(got, want) {
		t.Errorf("GameID of the batch's records = %q, want %q", got, want)
	}
}

// record decodes one stream record from its JSON, "dynamodb" part only.
func record(t *testing.T, eventName, change string) events.DynamoDBEventRecord {
	t.Helper()
	var r events.DynamoDBEventRecord
	js := fmt.Sprintf(`{"eventName":%q,"eventSource":"aws:dynamodb","dynamodb":%s}`, eventName, change)
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return r
}

func TestGameIDEdges(t *testing.T) {
	tests := []struct {
		name, event, change, want string
	}{
		{"keys only in the image", "INSERT", `{"NewImage":{"pk":{"S":"GAME#a1"},"sk":{"S":"GAME"},"outbox":{"S":"1"}},"SequenceNumber":"1"}`, "a1"},
		{"pk not a string", "INSERT", `{"Keys":{"pk":{"N":"7"},"sk":{"S":"GAME"}},"NewImage":{"outbox":{"S":"1"}},"SequenceNumber":"1"}`, ""},
		{"pk of a player", "MODIFY", `{"Keys":{"pk":{"S":"PLAYER#a@b.c"},"sk":{"S":"GAME"}},"NewImage":{"outbox":{"S":"1"}},"SequenceNumber":"1"}`, ""},
		{"empty game id", "MODIFY", `{"Keys":{"pk":{"S":"GAME#"},"sk":{"S":"GAME"}},"NewImage":{"outbox":{"S":"1"}},"SequenceNumber":"1"}`, ""},
		{"no new image", "MODIFY", `{"Keys":{"pk":{"S":"GAME#a1"},"sk":{"S":"GAME"}},"SequenceNumber":"1"}`, ""},
		{"removal with an image", "REMOVE", `{"Keys":{"pk":{"S":"GAME#a1"},"sk":{"S":"GAME"}},"NewImage":{"outbox":{"S":"1"}},"SequenceNumber":"1"}`, ""},
		{"no keys at all", "INSERT", `{"NewImage":{"outbox":{"S":"1"}},"SequenceNumber":"1"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := GameID(record(t, tt.event, tt.change)); got != tt.want {
				t.Errorf("GameID = %q, want %q", got, tt.want)
			}
		})
	}
}

// drains records the games drained and fails those in fail.
type drains struct {
	fail  map[string]error
	calls []string
}

func (d *drains) drain(_ context.Context, id string) error {
	d.calls = append(d.calls, id)
	return d.fail[id]
}

func TestHandle(t *testing.T) {
	gone := fmt.Errorf("drain Zk4pQ1: %w", store.ErrNotFound)
	tests := []struct {
		name     string
		fail     map[string]error
		canceled bool
		calls    []string
		response string // the JSON Lambda reads
	}{
		{
			name:     "all drained",
			calls:    []string{"g7Hq2x", "Zk4pQ1", "Mm9rT3"},
			response: `{"batchItemFailures":[]}`,
		},
		{
			name:     "one game fails: its first record is reported",
			fail:     map[string]error{"Zk4pQ1": errors.New("ses: throttled")},
			calls:    []string{"g7Hq2x", "Zk4pQ1", "Mm9rT3"},
			response: `{"batchItemFailures":[{"itemIdentifier":"100000000000000000003"}]}`,
		},
		{
			name:     "a game seen twice is reported at its first record",
			fail:     map[string]error{"g7Hq2x": errors.New("boom"), "Mm9rT3": errors.New("boom")},
			calls:    []string{"g7Hq2x", "Zk4pQ1", "Mm9rT3"},
			response: `{"batchItemFailures":[{"itemIdentifier":"100000000000000000001"},{"itemIdentifier":"100000000000000000008"}]}`,
		},
		{
			name:     "a game that is gone is not retried",
			fail:     map[string]error{"Zk4pQ1": gone},
			calls:    []string{"g7Hq2x", "Zk4pQ1", "Mm9rT3"},
			response: `{"batchItemFailures":[]}`,
		},
		{
			name:     "out of time: nothing tried, everything reported",
			canceled: true,
			response: `{"batchItemFailures":[{"itemIdentifier":"100000000000000000001"},{"itemIdentifier":"100000000000000000003"},{"itemIdentifier":"100000000000000000008"}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.canceled {
				cancel()
			}
			d := &drains{fail: tt.fail}
			resp, err := Handle(ctx, loadBatch(t), d.drain, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatalf("Handle: %v", err)
			}
			if !slices.Equal(d.calls, tt.calls) {
				t.Errorf("drained %q, want %q (each game once, in order)", d.calls, tt.calls)
			}
			js, err := json.Marshal(resp)
			if err != nil {
				t.Fatal(err)
			}
			if string(js) != tt.response {
				t.Errorf("response %s\nwant     %s", js, tt.response)
			}
		})
	}
}

func TestHandleEmpty(t *testing.T) {
	d := &drains{}
	resp, err := Handle(context.Background(), events.DynamoDBEvent{}, d.drain, slog.New(slog.DiscardHandler))
	if err != nil || len(resp.BatchItemFailures) != 0 || len(d.calls) != 0 {
		t.Errorf("empty batch: %+v, %v, drained %q", resp, err, d.calls)
	}
}
