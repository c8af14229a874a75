//go:build linux

package lambdatest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
)

// TestSweepHandsOutToNotify runs the sweep's binary and then the
// notifier's under the emulator over a game whose reminder fell due a
// minute ago: the sweep writes a request to tick it and leaves the game
// alone; the notifier, handed the request's insertion as the stream
// delivers it (twice: Lambda's retry), ticks the game, which then holds
// the reminder of each seat owing a decision, once, for the stream to
// mail.
func TestSweepHandsOutToNotify(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	then := time.Now().Add(-3*time.Hour - time.Minute) // 4-hour deadlines: the reminder at 3 hours
	clock := func() time.Time { return then }
	req := w.createRequest("handout")
	req.DeadlineHours = 4
	created, err := w.service(clock).Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, w.service(clock), created.ID)
	for seat := range req.Seats {
		if _, err := w.service(clock).Accept(ctx, created.ID, seat); err != nil {
			t.Fatal(err)
		}
	}
	before, err := w.store.GetGame(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if due := time.Unix(before.WakeAt, 0); due.After(time.Now()) || time.Since(due) > service.HandOutFor/2 {
		t.Fatalf("the game wakes at %v, want a minute ago", due)
	}

	event, err := os.ReadFile(filepath.Join("testdata", "scheduled.json"))
	if err != nil {
		t.Fatal(err)
	}
	sweep := build(t, sweepFunction)
	fn := startEmulator(t, buildRIE(t), sweep, w.env(sweepFunction, filepath.Dir(sweep)))
	if out := fn.invoke(event); string(out) != "null" {
		t.Errorf("sweep: answer %s, want null", out)
	}
	if after, err := w.store.GetGame(ctx, created.ID); err != nil || after.Version != before.Version {
		t.Fatalf("the game after the sweep: version %d, %v; want %d, left to the notifier", after.Version, err, before.Version)
	}
	key := map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "GAME#" + created.ID},
		"sk": &types.AttributeValueMemberS{Value: fmt.Sprintf("TICK#%012d", before.WakeAt)},
	}
	request, err := w.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(w.table), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil || request.Item == nil {
		t.Fatalf("no tick request after the sweep: %v", err)
	}

	batch, err := json.Marshal(map[string]any{"Records": []any{w.streamRecord("INSERT", request.Item, "4421584500000000017432119001")}})
	if err != nil {
		t.Fatal(err)
	}
	notify := build(t, notifyFunction)
	nfn := startEmulator(t, buildRIE(t), notify, w.env(notifyFunction, filepath.Dir(notify)))
	for attempt := 1; attempt <= 2; attempt++ {
		if out := nfn.invoke(batch); string(out) != `{"batchItemFailures":[]}` {
			t.Errorf("notify, attempt %d: answer %s, want no failures", attempt, out)
		}
	}
	rec, ver, err := w.service(nil).Load(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	reminders, owing := 0, 0
	for _, m := range rec.Outbox {
		if m.Kind == service.MailReminder {
			reminders++
		}
	}
	for _, due := range rec.Due {
		if due != 0 {
			owing++
		}
	}
	if ver != before.Version+1 || owing == 0 || reminders != owing {
		t.Errorf("after the notifier: version %d, %d reminders pending; want version %d and a reminder to each of the %d seats owing",
			ver, reminders, before.Version+1, owing)
	}
}
