package streams

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
)

func TestImage(t *testing.T) {
	ev := loadBatch(t)
	g, ok := Image(ev.Records[3])
	if !ok || g.ID != "g7Hq2x" || g.Version != 2 || string(g.Body) != `{"kind":"western"}` || g.UpdatedAt == 0 {
		t.Errorf("Image of the game's second record = %+v, %v; want version 2 with its body", g, ok)
	}
	if _, ok := Image(ev.Records[1]); ok {
		t.Error("a chunk's record gave an image")
	}
	keysOnly := record(t, "INSERT", `{"NewImage":{"pk":{"S":"GAME#a1"},"sk":{"S":"GAME"},"outbox":{"S":"1"}},"SequenceNumber":"1"}`)
	if g, ok := Image(keysOnly); !ok || g.ID != "a1" || g.Body != nil {
		t.Errorf("Image without a body = %+v, %v; want the id alone", g, ok)
	}
}

// TestHandleImages: each game is drained once, as its newest record has
// it; one whose newest record has no mail pending is not drained.
func TestHandleImages(t *testing.T) {
	var got []store.Game
	resp, err := HandleImages(context.Background(), loadBatch(t), func(_ context.Context, g store.Game) error {
		got = append(got, g)
		return nil
	}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, g := range got {
		ids = append(ids, g.ID)
	}
	if want := []string{"g7Hq2x", "Mm9rT3"}; !slices.Equal(ids, want) {
		t.Fatalf("drained %q, want %q (Zk4pQ1's newest record has its outbox emptied)", ids, want)
	}
	if got[0].Version != 2 {
		t.Errorf("g7Hq2x drained as version %d, want its newest, 2", got[0].Version)
	}
	if js, _ := json.Marshal(resp); string(js) != `{"batchItemFailures":[]}` {
		t.Errorf("response %s", js)
	}
}
