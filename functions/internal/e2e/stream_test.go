package e2e

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/streams"
	"github.com/pbmgames/pbm/functions/internal/wiring"
)

// tickStream stands in for the table's stream where dynalite has none:
// it finds the sweep's tick requests written since it last looked (a
// Scan, as no function does) and hands them to the notify function's
// code, streams.Ticks, in batches of notifyBatch records, workers
// batches at once, as parallel notify invocations would.
type tickStream struct {
	admin     *dynamodb.Client
	table     string
	delivered map[string]bool // pk and sk of each request handed over
}

// notifyBatch is the BatchSize of the notifier's stream (template.yaml).
const notifyBatch = 10

func newTickStream(admin *dynamodb.Client, table string) *tickStream {
	return &tickStream{admin: admin, table: table, delivered: map[string]bool{}}
}

// requests are the records of the tick requests not delivered yet, as
// the stream carries their insertion.
func (s *tickStream) requests(t testing.TB) []events.DynamoDBEventRecord {
	t.Helper()
	var recs []events.DynamoDBEventRecord
	p := dynamodb.NewScanPaginator(s.admin, &dynamodb.ScanInput{TableName: aws.String(s.table), ConsistentRead: aws.Bool(true),
		FilterExpression:          aws.String("begins_with(sk, :tick)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":tick": &types.AttributeValueMemberS{Value: streams.TickPrefix}}})
	for p.HasMorePages() {
		out, err := p.NextPage(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			pk, sk := it["pk"].(*types.AttributeValueMemberS).Value, it["sk"].(*types.AttributeValueMemberS).Value
			if s.delivered[pk+" "+sk] {
				continue
			}
			s.delivered[pk+" "+sk] = true
			recs = append(recs, events.DynamoDBEventRecord{EventName: "INSERT", Change: events.DynamoDBStreamRecord{
				Keys: map[string]events.DynamoDBAttributeValue{"pk": events.NewStringAttribute(pk), "sk": events.NewStringAttribute(sk)}}})
		}
	}
	// The stream orders a partition's records, not the table's.
	slices.SortFunc(recs, func(a, b events.DynamoDBEventRecord) int {
		return strings.Compare(a.Change.Keys["pk"].String(), b.Change.Keys["pk"].String())
	})
	return recs
}

// deliver hands recs to app's notifier code, notifyBatch records a batch,
// workers batches at once.
func (s *tickStream) deliver(t testing.TB, app *wiring.App, recs []events.DynamoDBEventRecord, workers int) {
	t.Helper()
	batches := slices.Collect(slices.Chunk(recs, notifyBatch))
	var wg sync.WaitGroup
	next := make(chan []events.DynamoDBEventRecord)
	for range workers {
		wg.Go(func() {
			for b := range next {
				streams.Ticks(context.WithoutCancel(t.Context()), events.DynamoDBEvent{Records: b}, app.Service.TickGames, app.Log)
			}
		})
	}
	for _, b := range batches {
		next <- b
	}
	close(next)
	wg.Wait()
}

// feed delivers the requests written since the last feed, with
// service.SweepWorkers batches at once, and returns how many.
func (s *tickStream) feed(t testing.TB, app *wiring.App) int {
	t.Helper()
	recs := s.requests(t)
	s.deliver(t, app, recs, service.SweepWorkers)
	return len(recs)
}
