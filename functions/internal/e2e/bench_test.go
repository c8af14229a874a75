package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// BenchmarkMoveVsBareCalls measures, in one run against dynalite, a move
// through the HTTP handler (decode, authorise, load, apply, save) beside a
// bare GetItem + PutItem of an item of the same size. It reports the time
// of a move, the time its own two DynamoDB calls took, the bare pair, and
// own/calls: the time our code adds (the move less its two calls) over the
// two calls (SPEC §6). It also reports the process's peak resident memory.
//
//	go test ./functions/internal/e2e -run XXX -bench MoveVsBare -benchtime 2000x
func BenchmarkMoveVsBareCalls(b *testing.B) {
	e := newEnv(b)
	id, tokens := e.startGame("western", 6, `{"laps":200}`)
	rec, _, err := e.svc.Load(b.Context(), id)
	if err != nil {
		b.Fatal(err)
	}
	g, err := e.svc.Engine(rec)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	key := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "GAME#" + id}, "sk": &types.AttributeValueMemberS{Value: "GAME"}}
	bareKey := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "BENCH#" + id}, "sk": key["sk"]}
	var moveTime, bareTime time.Duration
	e.store.calls = 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if g.Over() {
			b.Fatal("the benchmark game ended; use fewer iterations")
		}
		seat := g.Owing()[0]
		a, _ := g.Bot(seat)
		inv := indexOf(rec.Seats, seat)
		e.drainOutbox(b, id) // the notifier's work, not the move's: untimed

		t0 := time.Now()
		body := httpapi.ActRequest{Action: a, Key: fmt.Sprintf("bench-%07d", i)}
		if st := e.call("POST", "/api/games/"+id+"/actions", tokens[inv], body, nil); st != http.StatusOK {
			b.Fatalf("move %d: %d", i, st)
		}
		moveTime += time.Since(t0)
		if g, _, err = g.Apply(seat, a); err != nil {
			b.Fatal(err)
		}

		// The bare pair: read the game item, write a copy of it.
		t1 := time.Now()
		out, err := e.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: &e.table, Key: key, ConsistentRead: aws.Bool(true)})
		if err != nil {
			b.Fatal(err)
		}
		item := out.Item
		item["pk"], item["sk"] = bareKey["pk"], bareKey["sk"]
		if _, err := e.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: &e.table, Item: item}); err != nil {
			b.Fatal(err)
		}
		bareTime += time.Since(t1)
	}
	b.StopTimer()
	move := float64(moveTime.Microseconds()) / float64(b.N)
	calls := float64(e.store.calls.Microseconds()) / float64(b.N)
	bare := float64(bareTime.Microseconds()) / float64(b.N)
	b.ReportMetric(move, "µs/move")
	b.ReportMetric(calls, "µs/move-calls")
	b.ReportMetric(bare, "µs/bare-get+put")
	b.ReportMetric((move-calls)/calls, "own/calls")
	b.ReportMetric(move/bare, "move/bare")
	if rss := peakRSS(); rss > 0 {
		b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MiB")
	}
}

// drainOutbox empties a game's outbox as the notifier would.
func (e *env) drainOutbox(b *testing.B, id string) {
	calls := e.store.calls
	rec, _, err := e.svc.Load(context.Background(), id)
	if err != nil {
		b.Fatal(err)
	}
	var sent []string
	for _, m := range rec.Outbox {
		sent = append(sent, m.ID)
	}
	if err := e.svc.MarkSent(context.Background(), id, sent, nil); err != nil {
		b.Fatal(err)
	}
	e.store.calls = calls
}

func indexOf(seats []service.SeatInfo, seat engine.Seat) int {
	for i, s := range seats {
		if s.Engine == seat && s.Accepted {
			return i
		}
	}
	return -1
}

// peakRSS reads the process's peak resident set (VmHWM) in bytes.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
