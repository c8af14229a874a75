//go:build linux

package lambdatest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/store"
)

// streamValue writes an attribute value in the JSON the stream's records
// carry it in (DynamoDB JSON: binary as base64).
func streamValue(v types.AttributeValue) any {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{"S": v.Value}
	case *types.AttributeValueMemberN:
		return map[string]any{"N": v.Value}
	case *types.AttributeValueMemberB:
		return map[string]any{"B": base64.StdEncoding.EncodeToString(v.Value)}
	case *types.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": v.Value}
	case *types.AttributeValueMemberNULL:
		return map[string]any{"NULL": true}
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": v.Value}
	case *types.AttributeValueMemberNS:
		return map[string]any{"NS": v.Value}
	case *types.AttributeValueMemberBS:
		var out []string
		for _, b := range v.Value {
			out = append(out, base64.StdEncoding.EncodeToString(b))
		}
		return map[string]any{"BS": out}
	case *types.AttributeValueMemberL:
		out := []any{}
		for _, e := range v.Value {
			out = append(out, streamValue(e))
		}
		return map[string]any{"L": out}
	case *types.AttributeValueMemberM:
		out := map[string]any{}
		for k, e := range v.Value {
			out[k] = streamValue(e)
		}
		return map[string]any{"M": out}
	}
	panic(fmt.Sprintf("attribute value %T", v))
}

// itemSize is an item's size as DynamoDB counts it, near enough for the
// records' SizeBytes: names and values.
func itemSize(item map[string]types.AttributeValue) int {
	n := 0
	for k, v := range item {
		n += len(k)
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			n += len(v.Value)
		case *types.AttributeValueMemberN:
			n += len(v.Value)/2 + 1
		case *types.AttributeValueMemberB:
			n += len(v.Value)
		default:
			n += 8
		}
	}
	return n
}

// streamRecord is the record the table's stream (StreamViewType NEW_IMAGE,
// as template.yaml sets it) delivers for a write of item.
func (w *world) streamRecord(eventName string, item map[string]types.AttributeValue, seq string) map[string]any {
	image := map[string]any{}
	for k, v := range item {
		image[k] = streamValue(v)
	}
	return map[string]any{
		"eventID":      randomHex(16),
		"eventName":    eventName,
		"eventVersion": "1.1",
		"eventSource":  "aws:dynamodb",
		"awsRegion":    region,
		"dynamodb": map[string]any{
			"ApproximateCreationDateTime": time.Now().Unix(),
			"Keys":                        map[string]any{"pk": streamValue(item["pk"]), "sk": streamValue(item["sk"])},
			"NewImage":                    image,
			"SequenceNumber":              seq,
			"SizeBytes":                   itemSize(item),
			"StreamViewType":              "NEW_IMAGE",
		},
		"eventSourceARN": fmt.Sprintf("arn:aws:dynamodb:%s:123456789012:table/%s/stream/2024-06-01T00:00:00.000", region, w.table),
	}
}

// createRequest is a «Вестерн» game of two seats and its organiser, their
// addresses marked with prefix and the test's tag.
func (w *world) createRequest(prefix string) service.CreateRequest {
	addr := func(name string) string { return fmt.Sprintf("%s.%s.%s@example.org", prefix, name, w.tag) }
	return service.CreateRequest{
		Kind:      "western",
		Options:   json.RawMessage(`{"laps":3}`),
		Organiser: service.Person{Name: "Ольга", Email: addr("olga"), Lang: "ru"},
		Seats: []service.Person{
			{Name: "Анна", Email: addr("anna"), Lang: "ru"},
			{Name: "Bob", Email: addr("bob"), Lang: "en"},
		},
	}
}

// recipients are the addresses of a game's pending mails.
func recipients(rec *service.Record) []string {
	var out []string
	for _, m := range rec.Outbox {
		to := rec.Organiser.Email
		if m.Seat >= 0 {
			to = rec.Seats[m.Seat].Email
		}
		out = append(out, to)
	}
	return out
}

// checkMailed checks that, of the mails to addresses starting with prefix,
// the SES server holds exactly one to each address of want.
func (w *world) checkMailed(prefix string, want []string) {
	w.t.Helper()
	var got []string
	for _, m := range w.mailsTo() {
		for _, to := range m.Destination.To {
			if strings.Contains(to, prefix+".") {
				got = append(got, to)
			}
		}
		if m.Subject == "" || (m.Body.Text == "" && m.Body.HTML == "") {
			w.t.Errorf("mail to %v has no subject or body", m.Destination.To)
		}
	}
	want = slices.Sorted(slices.Values(want))
	slices.Sort(got)
	matched := len(want) == len(got)
	for i := 0; matched && i < len(want); i++ {
		matched = strings.Contains(got[i], want[i])
	}
	if !matched {
		w.t.Errorf("SES holds mail to %v, want one to each of %v", got, want)
	}
}

// TestNotifyFunction runs the notifier's binary under the emulator with a
// batch of stream records, as Lambda's event source mapping delivers them
// after template.yaml's filter: a new game with its invitations pending, a
// game gone since (deleted: not retried), and a game whose item cannot be
// read (reported as the batch's failure). The invitations reach
// aws-ses-v2-local and the game's outbox is empty afterwards; the same
// batch again (Lambda's retry) sends nothing twice.
func TestNotifyFunction(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	svc := w.service(nil)
	created, err := svc.Create(ctx, w.createRequest("notify"))
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, svc, created.ID)
	rec, _, err := svc.Load(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	pending := recipients(rec)
	if len(pending) == 0 {
		t.Fatal("a new game has no mail pending")
	}
	item := w.gameItem(created.ID)
	if _, ok := item["outbox"]; !ok {
		t.Fatal("the game's item has no outbox attribute")
	}

	// A game deleted since its record was written: its image, another key.
	gone := map[string]types.AttributeValue{}
	for k, v := range item {
		gone[k] = v
	}
	gone["pk"] = &types.AttributeValueMemberS{Value: "GAME#gone" + w.tag}
	// A game whose item holds no readable game.
	broken := map[string]types.AttributeValue{
		"pk":     &types.AttributeValueMemberS{Value: "GAME#broken" + w.tag},
		"sk":     &types.AttributeValueMemberS{Value: "GAME"},
		"ver":    &types.AttributeValueMemberN{Value: "1"},
		"upd":    &types.AttributeValueMemberN{Value: fmt.Sprint(time.Now().Unix())},
		"body":   &types.AttributeValueMemberB{Value: []byte("not a game")},
		"outbox": &types.AttributeValueMemberS{Value: "1"},
	}
	if _, err := w.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(w.table), Item: broken}); err != nil {
		t.Fatal(err)
	}
	const goodSeq, goneSeq, brokenSeq = "4421584500000000017432117751", "4421584600000000017432117802", "4421584700000000017432117853"
	batch, err := json.Marshal(map[string]any{"Records": []any{
		w.streamRecord("INSERT", item, goodSeq),
		w.streamRecord("MODIFY", gone, goneSeq),
		w.streamRecord("INSERT", broken, brokenSeq),
	}})
	if err != nil {
		t.Fatal(err)
	}

	bin := build(t, notifyFunction)
	fn := startEmulator(t, buildRIE(t), bin, w.env(notifyFunction, filepath.Dir(bin)))
	for attempt := 1; attempt <= 2; attempt++ {
		out := fn.invoke(batch)
		// The partial batch response, as Lambda reads it
		// (FunctionResponseTypes: ReportBatchItemFailures).
		var resp struct {
			BatchItemFailures []map[string]string `json:"batchItemFailures"`
		}
		if err := json.Unmarshal(out, &resp); err != nil {
			t.Fatalf("attempt %d: answer %s: %v", attempt, out, err)
		}
		if want := []map[string]string{{"itemIdentifier": brokenSeq}}; len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0]["itemIdentifier"] != brokenSeq {
			t.Errorf("attempt %d: answer %s, want batchItemFailures %v: the broken game only, not the one gone", attempt, out, want)
		}
		w.checkMailed("notify", pending)
	}

	// The function drained the stream's image of the game and marked the
	// mail sent in the game's sent marker, without writing the game: a
	// service that reads the markers, as the deployed ones do, sees the
	// outbox empty; the game's next write drops the mail (or the sweep's,
	// which also clears the outbox attribute).
	marked := service.New(service.Config{Games: testGames.Engines(), Store: w.store, Players: w.store, Sent: w.store, Keys: w.keys,
		Log: slog.New(slog.DiscardHandler), Rand: w.rand})
	after, _, err := marked.Load(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Outbox) != 0 {
		t.Errorf("outbox after the drain: %+v", after.Outbox)
	}
	if got, want := fmt.Sprint(streamValue(w.gameItem(created.ID)["ver"])), fmt.Sprint(streamValue(item["ver"])); got != want {
		t.Errorf("the game's item is version %v after the drain, want %v: the notifier does not write the game", got, want)
	}
	if m, err := w.store.GetSent(ctx, created.ID); err != nil || len(m.Body) == 0 {
		t.Errorf("the game's sent marker: %+v, %v", m, err)
	}
	if _, err := w.store.GetGame(ctx, "gone"+w.tag); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the gone game: %v, want not found", err)
	}
}
