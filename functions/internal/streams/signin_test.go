package streams_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/pbmgames/pbm/functions/internal/streams"
)

// TestSignInAddress: a sign-in counter written asks for a link to its
// address (one with a "/" too); its deletion, other counters and game
// items ask for none.
func TestSignInAddress(t *testing.T) {
	rec := func(event, pk string) events.DynamoDBEventRecord {
		js := `{"eventName":"` + event + `","dynamodb":{"Keys":{"pk":{"S":"` + pk + `"},"sk":{"S":"GUARD"}},"NewImage":{"n":{"N":"1"}},"SequenceNumber":"1"}}`
		var r events.DynamoDBEventRecord
		if err := json.Unmarshal([]byte(js), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	cases := []struct {
		event, pk, want string
	}{
		{"INSERT", "GUARD#signin/addr/a@pbm.test/3600/493000", "a@pbm.test"},
		{"MODIFY", "GUARD#signin/addr/a/b@pbm.test/3600/493000", "a/b@pbm.test"},
		{"REMOVE", "GUARD#signin/addr/a@pbm.test/3600/493000", ""},
		{"MODIFY", "GUARD#signin/client/1.2.3.4/3600/493000", ""},
		{"MODIFY", "GUARD#games/org/a@pbm.test/3600/493000", ""},
		{"MODIFY", "GAME#x", ""},
		{"INSERT", "GUARD#signin/addr/", ""},
	}
	var batch events.DynamoDBEvent
	var want []string
	for _, c := range cases {
		r := rec(c.event, c.pk)
		if got := streams.SignInAddress(r); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.event, c.pk, got, c.want)
		}
		batch.Records = append(batch.Records, r)
		if c.want != "" {
			want = append(want, c.want)
		}
	}
	var sent []string
	streams.SendSignIns(context.Background(), batch, func(_ context.Context, email string) error { sent = append(sent, email); return nil },
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	if !slices.Equal(sent, want) {
		t.Fatalf("SendSignIns sent %v; want %v", sent, want)
	}
}
