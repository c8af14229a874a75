package dynamostore_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/store/storetest"
	"github.com/pbmgames/pbm/infra/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// newTable creates a table of a fresh random name on the test dynalite.
func newTable(t *testing.T, client *dynamodb.Client) string {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	table := "games-" + hex.EncodeToString(b)
	if err := dynamostore.CreateTable(context.Background(), client, table); err != nil {
		t.Fatal(err)
	}
	return table
}

func TestConformance(t *testing.T) {
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	s := dynamostore.New(client, newTable(t, client))
	storetest.Run(t, func(*testing.T) store.Store { return s })
}

func TestPlayersConformance(t *testing.T) {
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	s := dynamostore.New(client, newTable(t, client))
	storetest.RunPlayers(t, func(*testing.T) store.PlayerStore { return s })
	storetest.RunMemberships(t, func(*testing.T) store.PlayerStore { return s })
}

func TestGuardConformance(t *testing.T) {
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	s := dynamostore.New(client, newTable(t, client))
	storetest.RunGuard(t, func(*testing.T) store.GuardStore { return s })
}

// Every player method is one request: writes are one UpdateItem each,
// with no read first.
func TestPlayerRequestsPerCall(t *testing.T) {
	ctx := context.Background()
	counter := &testenv.CountingTransport{}
	client := testenv.DynamoClient(t, testenv.Dynalite(t), func(o *dynamodb.Options) {
		o.HTTPClient = &http.Client{Transport: counter}
	})
	s := dynamostore.New(client, newTable(t, client))
	counter.Reset()
	for _, c := range []struct {
		what string
		call func() error
	}{
		{"AddPlayerGame (create)", func() error { return s.AddPlayerGame(ctx, "p@x.org", "g1", 1) }},
		{"AddPlayerGame (again)", func() error { return s.AddPlayerGame(ctx, "p@x.org", "g1", 2) }},
		{"SetPlayerPrefs", func() error {
			return s.SetPlayerPrefs(ctx, "p@x.org", "ru", store.MailTurns, "Europe/Moscow", false, 3)
		}},
		{"SetPlayerPrefs (empty)", func() error { return s.SetPlayerPrefs(ctx, "p@x.org", "", "", "", true, 4) }},
		{"Suppress", func() error { return s.Suppress(ctx, "p@x.org", "bounce", 5) }},
		{"Suppress (create)", func() error { return s.Suppress(ctx, "q@x.org", "", 6) }},
		{"GetPlayer", func() error { _, err := s.GetPlayer(ctx, "P@x.org"); return err }},
		{"QueueDigest", func() error {
			return s.QueueDigest(ctx, "p@x.org", store.DigestItem{Game: "g1", Kind: "over", At: 7}, 7)
		}},
		{"TakeDigest", func() error { _, err := s.TakeDigest(ctx, "p@x.org"); return err }},
		{"TakeDigest (empty)", func() error { _, err := s.TakeDigest(ctx, "p@x.org"); return err }},
		{"GetPlayer (missing)", func() error {
			if _, err := s.GetPlayer(ctx, "nobody@x.org"); !errors.Is(err, store.ErrNotFound) {
				return err
			}
			return nil
		}},
	} {
		if err := c.call(); err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		if n := counter.Reset(); n != 1 {
			t.Errorf("%s took %d requests, want 1", c.what, n)
		}
	}
}

// The player item has the layout the package documents.
func TestPlayerItemLayout(t *testing.T) {
	ctx := context.Background()
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	table := newTable(t, client)
	s := dynamostore.New(client, table)
	sdk := testenv.DynamoClient(t, testenv.Dynalite(t))
	if err := s.AddPlayerGame(ctx, "Anna@X.org", "g2", 1); err != nil {
		t.Fatal(err)
	}
	if err := s.AddPlayerGame(ctx, "anna@x.org", "g1", 2); err != nil {
		t.Fatal(err)
	}
	if err := s.SetPlayerPrefs(ctx, "anna@x.org", "ru", store.MailDigest, "", true, 3); err != nil {
		t.Fatal(err)
	}
	if err := s.Suppress(ctx, "anna@x.org", "complaint", 4); err != nil {
		t.Fatal(err)
	}
	out, err := sdk.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: &table,
		Key: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "PLAYER#anna@x.org"},
			"sk": &types.AttributeValueMemberS{Value: "PLAYER"},
		},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]types.AttributeValue{
		"pk":          &types.AttributeValueMemberS{Value: "PLAYER#anna@x.org"},
		"sk":          &types.AttributeValueMemberS{Value: "PLAYER"},
		"lang":        &types.AttributeValueMemberS{Value: "ru"},
		"mail":        &types.AttributeValueMemberS{Value: store.MailDigest},
		"unsub":       &types.AttributeValueMemberBOOL{Value: true},
		"supp":        &types.AttributeValueMemberBOOL{Value: true},
		"supp_reason": &types.AttributeValueMemberS{Value: "complaint"},
		"supp_at":     &types.AttributeValueMemberN{Value: "4"},
		"games":       &types.AttributeValueMemberSS{Value: []string{"g1", "g2"}},
		"upd":         &types.AttributeValueMemberN{Value: "4"},
	}
	if len(out.Item) != len(want) {
		t.Errorf("item has %d attributes, want %d: %v", len(out.Item), len(want), out.Item)
	}
	for name, w := range want {
		got := out.Item[name]
		if ss, ok := got.(*types.AttributeValueMemberSS); ok {
			slices.Sort(ss.Value)
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("attribute %s = %#v, want %#v", name, got, w)
		}
	}
}

// A move costs one read and one conditional write: one request each.
func TestRequestsPerCall(t *testing.T) {
	ctx := context.Background()
	counter := &testenv.CountingTransport{}
	client := testenv.DynamoClient(t, testenv.Dynalite(t), func(o *dynamodb.Options) {
		o.HTTPClient = &http.Client{Transport: counter}
	})
	s := dynamostore.New(client, newTable(t, client))

	check := func(what string, want int64) {
		t.Helper()
		if n := counter.Reset(); n != want {
			t.Errorf("%s took %d requests, want %d", what, n, want)
		}
	}
	counter.Reset()
	if _, err := s.PutGame(ctx, store.Game{ID: "g", Body: []byte("one")}, 0); err != nil {
		t.Fatal(err)
	}
	check("PutGame (create)", 1)
	g, err := s.GetGame(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	check("GetGame", 1)
	if _, err := s.PutGame(ctx, store.Game{ID: "g", Body: []byte("two"), OutboxPending: true}, g.Version); err != nil {
		t.Fatal(err)
	}
	check("PutGame (update)", 1)
	if _, err := s.PutGame(ctx, store.Game{ID: "g", Body: []byte("stale")}, g.Version); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale PutGame: %v", err)
	}
	check("PutGame (conflict)", 1)
	if _, err := s.GetGame(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetGame(missing): %v", err)
	}
	check("GetGame (missing)", 1)
	c := store.Chunk{GameID: "g", Seq: 0, Body: []byte("log")}
	if err := s.PutChunk(ctx, c); err != nil {
		t.Fatal(err)
	}
	check("PutChunk", 1)
}

// The errors keep the service's error in their chain next to the store's.
func TestConflictWrapsServiceError(t *testing.T) {
	ctx := context.Background()
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	s := dynamostore.New(client, newTable(t, client))
	if _, err := s.PutGame(ctx, store.Game{ID: "g"}, 0); err != nil {
		t.Fatal(err)
	}
	_, err := s.PutGame(ctx, store.Game{ID: "g"}, 0)
	var ccf interface{ ErrorCode() string }
	if !errors.Is(err, store.ErrConflict) || !errors.As(err, &ccf) || ccf.ErrorCode() != "ConditionalCheckFailedException" {
		t.Fatalf("conflict error = %v", err)
	}
}

// Where dynalite puts the size limit; boltstore's test checks the same edge.
func TestSizeLimitEdge(t *testing.T) {
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	s := dynamostore.New(client, newTable(t, client))
	storetest.SizeLimitEdge(t, s, "edge")
}

// The game item has the layout the package documents: wpk and wake only
// while WakeAt is set, outbox only while mail is pending.
func TestGameItemLayout(t *testing.T) {
	ctx := context.Background()
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	table := newTable(t, client)
	s := dynamostore.New(client, table)
	sdk := testenv.DynamoClient(t, testenv.Dynalite(t))
	item := func() map[string]types.AttributeValue {
		t.Helper()
		out, err := sdk.GetItem(ctx, &dynamodb.GetItemInput{
			TableName: &table,
			Key: map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: "GAME#g"},
				"sk": &types.AttributeValueMemberS{Value: "GAME"},
			},
			ConsistentRead: aws.Bool(true),
		})
		if err != nil {
			t.Fatal(err)
		}
		return out.Item
	}
	if _, err := s.PutGame(ctx, store.Game{ID: "g", Body: []byte("b"), UpdatedAt: 5, OutboxPending: true, WakeAt: 1700003600}, 0); err != nil {
		t.Fatal(err)
	}
	want := map[string]types.AttributeValue{
		"pk":     &types.AttributeValueMemberS{Value: "GAME#g"},
		"sk":     &types.AttributeValueMemberS{Value: "GAME"},
		"ver":    &types.AttributeValueMemberN{Value: "1"},
		"upd":    &types.AttributeValueMemberN{Value: "5"},
		"body":   &types.AttributeValueMemberB{Value: []byte("b")},
		"outbox": &types.AttributeValueMemberS{Value: "1"},
		"wpk":    &types.AttributeValueMemberS{Value: "W"},
		"wake":   &types.AttributeValueMemberN{Value: "1700003600"},
	}
	if got := item(); !reflect.DeepEqual(got, want) {
		t.Errorf("item = %#v, want %#v", got, want)
	}
	if _, err := s.PutGame(ctx, store.Game{ID: "g", Body: []byte("b"), UpdatedAt: 6}, 1); err != nil {
		t.Fatal(err)
	}
	delete(want, "outbox")
	delete(want, "wpk")
	delete(want, "wake")
	want["ver"] = &types.AttributeValueMemberN{Value: "2"}
	want["upd"] = &types.AttributeValueMemberN{Value: "6"}
	if got := item(); !reflect.DeepEqual(got, want) {
		t.Errorf("item = %#v, want %#v", got, want)
	}
}

// TestPassedTurnExpires: a passed turn is marked with the table's TTL at
// the wall clock's now, not at a time so far past that DynamoDB's TTL
// would never delete it (it skips values more than five years old).
func TestPassedTurnExpires(t *testing.T) {
	ctx := t.Context()
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	table := newTable(t, client)
	s := dynamostore.New(client, table)
	if err := s.PutTurn(ctx, store.Turn{Email: "ttl@pbm.test", Game: "g1", Due: 2_000_000_000}); err != nil {
		t.Fatal(err)
	}
	before := time.Now().Unix()
	if err := s.DeleteTurn(ctx, "ttl@pbm.test", "g1", 2_000_000_000); err != nil {
		t.Fatal(err)
	}
	after := time.Now().Unix()
	out, err := client.Query(ctx, &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "PLAYER#ttl@pbm.test"}},
		ConsistentRead:            aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Items) != 1 {
		t.Fatalf("%d items in the player's partition, want the marked turn", len(out.Items))
	}
	n, ok := out.Items[0][dynamostore.AttrTTL].(*types.AttributeValueMemberN)
	if !ok {
		t.Fatalf("the passed turn's ttl is %#v, not a number", out.Items[0][dynamostore.AttrTTL])
	}
	ttl, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil || ttl < before || ttl > after {
		t.Errorf("the passed turn's ttl = %v, want the time it was marked, in [%d, %d]", out.Items[0][dynamostore.AttrTTL], before, after)
	}
}

// TestTurnTTL: a turn is written with its Expires as the item's ttl, for
// the table's TTL to delete it at no write of ours; one without has
// none (it never expires), as memberships have none.
func TestTurnTTL(t *testing.T) {
	ctx := t.Context()
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	table := newTable(t, client)
	s := dynamostore.New(client, table)
	exp := time.Now().Add(30 * 24 * time.Hour).Unix()
	if err := s.PutTurn(ctx, store.Turn{Email: "ttl@pbm.test", Game: "g1", Due: 1_900_000_000, Expires: exp}); err != nil {
		t.Fatal(err)
	}
	if err := s.MoveTurns(ctx, nil, []store.Turn{{Email: "ttl@pbm.test", Game: "g2", Due: 1_900_000_001, Expires: exp + 1}, {Email: "ttl@pbm.test", Game: "g3", Due: 1_900_000_002}}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutMembership(ctx, store.Membership{Email: "ttl@pbm.test", Game: "g1", Created: 5}); err != nil {
		t.Fatal(err)
	}
	out, err := client.Query(ctx, &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "PLAYER#ttl@pbm.test"}},
		ConsistentRead:            aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, it := range out.Items {
		sk := it["sk"].(*types.AttributeValueMemberS).Value
		got[sk] = "none"
		if n, ok := it[dynamostore.AttrTTL].(*types.AttributeValueMemberN); ok {
			got[sk] = n.Value
		}
	}
	want := map[string]string{
		"PLAYER#1TURN#1900000000#g1": strconv.FormatInt(exp, 10),
		"PLAYER#1TURN#1900000001#g2": strconv.FormatInt(exp+1, 10),
		"PLAYER#1TURN#1900000002#g3": "none",
		"PLAYER#2GAME#9999999994#g1": "none",
	}
	if !maps.Equal(got, want) {
		t.Errorf("ttl of the player's items = %v, want %v", got, want)
	}
}
