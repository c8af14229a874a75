package dynamostore_test

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestTickRequests: WakingDue lists the games due with their wakes, as
// Waking lists their ids; RequestTicks writes one small item a game and
// wake, a batch in one request, the same item when written again,
// expiring a day after its wake; a batch over the limit, or a request
// with no game or wake, is refused.
func TestTickRequests(t *testing.T) {
	ctx := context.Background()
	counter := &testenv.CountingTransport{}
	client := testenv.DynamoClient(t, testenv.Dynalite(t), func(o *dynamodb.Options) { o.HTTPClient = &http.Client{Transport: counter} })
	table := newTable(t, client)
	s := dynamostore.New(client, table)
	var want []store.Due
	var ids []string
	for i := range 30 {
		g := store.Game{ID: fmt.Sprintf("g%02d", i), Body: []byte("x"), WakeAt: int64(1_764_590_000 + i)}
		if _, err := s.PutGame(ctx, g, 0); err != nil {
			t.Fatal(err)
		}
		if i <= 25 {
			want = append(want, store.Due{ID: g.ID, At: g.WakeAt})
			ids = append(ids, g.ID)
		}
	}
	due, err := s.WakingDue(ctx, 1_764_590_025)
	if err != nil {
		t.Fatal(err)
	}
	byWake := func(a, b store.Due) int { return int(a.At - b.At) }
	slices.SortFunc(due, byWake)
	if !slices.Equal(due, want) {
		t.Errorf("WakingDue = %v, want %v", due, want)
	}
	waking, err := s.Waking(ctx, 1_764_590_025)
	slices.Sort(waking)
	if err != nil || !slices.Equal(waking, ids) {
		t.Errorf("Waking = %v, %v; want %v", waking, err, ids)
	}

	batch := want[:store.MaxTickRequests]
	for range 2 { // the second time, as a second sweep at once would
		counter.Reset()
		if err := s.RequestTicks(ctx, batch); err != nil {
			t.Fatal(err)
		}
		if n := counter.Reset(); n != 1 {
			t.Errorf("RequestTicks of %d: %d requests, want 1", len(batch), n)
		}
	}
	for _, d := range batch {
		k := map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "GAME#" + d.ID},
			"sk": &types.AttributeValueMemberS{Value: fmt.Sprintf("TICK#%012d", d.At)},
		}
		out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, ConsistentRead: aws.Bool(true), Key: k})
		if err != nil {
			t.Fatal(err)
		}
		wantItem := map[string]types.AttributeValue{"pk": k["pk"], "sk": k["sk"],
			"ttl": &types.AttributeValueMemberN{Value: fmt.Sprint(d.At + 24*3600)}}
		if !reflect.DeepEqual(out.Item, wantItem) {
			t.Errorf("the request of %v: %v, want %v", d, out.Item, wantItem)
		}
	}
	// The requests are no games: listings of games see none of them.
	if again, err := s.WakingDue(ctx, 1_764_590_025); err != nil || len(again) != len(want) {
		t.Errorf("WakingDue after the requests: %d games, %v; want %d", len(again), err, len(want))
	}
	if err := s.RequestTicks(ctx, want); err == nil {
		t.Errorf("RequestTicks of %d requests: no error", len(want))
	}
	if err := s.RequestTicks(ctx, []store.Due{{ID: "g00"}}); err == nil {
		t.Error("RequestTicks with no wake: no error")
	}
	if err := s.RequestTicks(ctx, []store.Due{{At: 5}}); err == nil {
		t.Error("RequestTicks with no game: no error")
	}
}
