package streams_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/pbmgames/pbm/functions/internal/streams"
)

// TestTalkPosted: a talk item inserted is a post to mail; the same item
// rewritten (hidden), its removal, the seat's mark and choice, and the
// game item are not.
func TestTalkPosted(t *testing.T) {
	cases := []struct {
		event, pk, sk, want string
	}{
		{"INSERT", "GAME#g1", "TALK#0001-aa", "g1 0001-aa"},
		{"MODIFY", "GAME#g1", "TALK#0001-aa", ""},
		{"REMOVE", "GAME#g1", "TALK#0001-aa", ""},
		{"INSERT", "GAME#g1", "TALK!SEEN#0", ""},
		{"INSERT", "GAME#g1", "TALK!MAIL#0", ""},
		{"INSERT", "GAME#g1", "GAME", ""},
		{"INSERT", "LEAGUE#l", "TALK#0001-aa", ""},
		{"INSERT", "GAME#g1", "TALK#", ""},
	}
	var batch events.DynamoDBEvent
	want := map[string]bool{}
	for _, c := range cases {
		r := keysRecord(c.event, c.pk, c.sk)
		got := ""
		if game, key := streams.TalkPosted(r); game != "" {
			got = game + " " + key
		}
		if got != c.want {
			t.Errorf("%s %s %s: %q, want %q", c.event, c.pk, c.sk, got, c.want)
		}
		batch.Records = append(batch.Records, r)
		want[c.want] = c.want != ""
	}
	sent := 0
	streams.SendTalks(context.Background(), batch, func(_ context.Context, game, key string) error {
		if !want[game+" "+key] {
			t.Errorf("SendTalks sent %s %s", game, key)
		}
		sent++
		return nil
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if sent != 1 {
		t.Fatalf("SendTalks sent %d mails of talk; want 1", sent)
	}
}
