package ddb_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/infra/awsapi"
	"github.com/pbmgames/pbm/infra/awsapi/awsapitest"
	"github.com/pbmgames/pbm/infra/awsapi/ddb"
	"github.com/pbmgames/pbm/infra/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// every holds a value of each type, strings that JSON must escape among
// them.
var every = ddb.Item{
	"pk":   ddb.S("T#1"),
	"sk":   ddb.S("x"),
	"s":    ddb.S("«Вестерн» \"q\" \\ \n\t\x01 \u2028 </script>"),
	"n":    ddb.N("-12.5"),
	"b":    ddb.B{0, 1, 2, 0xff},
	"e":    ddb.B{},
	"ss":   ddb.SS{"a", "б"},
	"ns":   ddb.NS{"1", "2"},
	"bs":   ddb.BS{{1}, {2, 3}},
	"l":    ddb.L{ddb.S("a"), ddb.Int(7), ddb.L{}, ddb.M{"k": ddb.BOOL(false)}},
	"m":    ddb.M{"g": ddb.S("g1"), "at": ddb.Int(1700000000)},
	"t":    ddb.BOOL(true),
	"f":    ddb.BOOL(false),
	"null": ddb.NULL(true),
}

// sorted puts the sets in order: DynamoDB keeps no set order.
func sorted(it ddb.Item) ddb.Item {
	for k, v := range it {
		switch v := v.(type) {
		case ddb.SS:
			slices.Sort(v)
		case ddb.NS:
			slices.Sort(v)
		case ddb.BS:
			slices.SortFunc(v, func(a, b []byte) int { return strings.Compare(string(a), string(b)) })
		}
		it[k] = v
	}
	return it
}

func TestItemJSONRoundTrip(t *testing.T) {
	data, err := json.Marshal(every)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(data) {
		t.Fatalf("invalid JSON %s", data)
	}
	var back ddb.Item
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, every) {
		t.Errorf("round trip:\n%#v\nwant\n%#v", back, every)
	}
	// The strings read back as encoding/json reads its own.
	for _, s := range []string{"\xff bad \xc3", "\u2029", "ok"} {
		b, _ := json.Marshal(ddb.S(s))
		var w struct{ S string }
		want, _ := json.Marshal(s)
		var ws string
		_ = json.Unmarshal(want, &ws)
		if err := json.Unmarshal(b, &w); err != nil || w.S != ws {
			t.Errorf("S(%q) as %s reads %q, %v; want %q", s, b, w.S, err, ws)
		}
	}
}

func TestUnknownValueRefused(t *testing.T) {
	var it ddb.Item
	if err := json.Unmarshal([]byte(`{"a":{"X":1}}`), &it); err == nil {
		t.Error("a value of no known type was read")
	}
}

func newTable(t *testing.T, c *ddb.Client) string {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	table := "ddb-" + hex.EncodeToString(b)
	err := c.CreateTable(t.Context(), &ddb.CreateTableInput{
		TableName: table, BillingMode: "PAY_PER_REQUEST",
		AttributeDefinitions: []ddb.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "sk", AttributeType: "S"}},
		KeySchema:            []ddb.KeySchemaElement{{AttributeName: "pk", KeyType: "HASH"}, {AttributeName: "sk", KeyType: "RANGE"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if err := c.WaitForTable(ctx, table, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	return table
}

// TestOnDynalite writes and reads every type through the client, and
// reads the same item with the SDK's client, an encoding of its own.
func TestOnDynalite(t *testing.T) {
	ctx := t.Context()
	ep := testenv.Dynalite(t)
	c := testenv.DynamoClient(t, ep)
	table := newTable(t, c)
	if _, err := c.PutItem(ctx, &ddb.PutItemInput{TableName: table, Item: every}); err != nil {
		t.Fatal(err)
	}
	key := ddb.Item{"pk": every["pk"], "sk": every["sk"]}
	out, err := c.GetItem(ctx, &ddb.GetItemInput{TableName: table, Key: key, ConsistentRead: true, ReturnConsumedCapacity: ddb.ConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	if got := sorted(out.Item); !reflect.DeepEqual(got, every) {
		t.Errorf("GetItem:\n%#v\nwant\n%#v", got, every)
	}
	if out.ConsumedCapacity == nil || out.ConsumedCapacity.CapacityUnits != 1 {
		t.Errorf("consumed capacity %+v, want 1 unit", out.ConsumedCapacity)
	}

	sdk := testenv.SDKDynamoClient(t, ep)
	seen, err := sdk.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "T#1"}, "sk": &types.AttributeValueMemberS{Value: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := seen.Item["s"].(*types.AttributeValueMemberS); s == nil || s.Value != string(every["s"].(ddb.S)) {
		t.Errorf("the SDK reads s as %#v", seen.Item["s"])
	}
	if b, _ := seen.Item["b"].(*types.AttributeValueMemberB); b == nil || string(b.Value) != string(every["b"].(ddb.B)) {
		t.Errorf("the SDK reads b as %#v", seen.Item["b"])
	}
	if l, _ := seen.Item["l"].(*types.AttributeValueMemberL); l == nil || len(l.Value) != 4 {
		t.Errorf("the SDK reads l as %#v", seen.Item["l"])
	}

	missing, err := c.GetItem(ctx, &ddb.GetItemInput{TableName: table, Key: ddb.Item{"pk": ddb.S("none"), "sk": ddb.S("x")}})
	if err != nil || missing.Item != nil {
		t.Errorf("GetItem of no item: %v, %v", missing.Item, err)
	}
}

func TestUpdateDeleteAndFailedCondition(t *testing.T) {
	ctx := t.Context()
	c := testenv.DynamoClient(t, testenv.Dynalite(t))
	table := newTable(t, c)
	key := ddb.Item{"pk": ddb.S("u"), "sk": ddb.S("x")}
	up, err := c.UpdateItem(ctx, &ddb.UpdateItemInput{TableName: table, Key: key, UpdateExpression: "ADD #n :one",
		ExpressionAttributeNames: map[string]string{"#n": "n"}, ExpressionAttributeValues: ddb.Item{":one": ddb.Int(1)},
		ReturnValues: ddb.ReturnValueUpdatedNew})
	if err != nil || !reflect.DeepEqual(up.Attributes, ddb.Item{"n": ddb.N("1")}) {
		t.Fatalf("UpdateItem: %v, %v", up.Attributes, err)
	}
	_, err = c.PutItem(ctx, &ddb.PutItemInput{TableName: table, Item: ddb.Item{"pk": ddb.S("u"), "sk": ddb.S("x")},
		ConditionExpression: "attribute_not_exists(pk)", ReturnValuesOnConditionCheckFailure: ddb.ReturnValueAllOld})
	var ccf *ddb.ConditionalCheckFailedException
	var ae *awsapi.APIError
	if !errors.As(err, &ccf) || !errors.As(err, &ae) || ae.ErrorCode() != "ConditionalCheckFailedException" || ae.Status != 400 {
		t.Fatalf("failed condition: %#v", err)
	}
	del, err := c.DeleteItem(ctx, &ddb.DeleteItemInput{TableName: table, Key: key, ReturnValues: ddb.ReturnValueAllOld})
	if err != nil || !reflect.DeepEqual(del.Attributes, ddb.Item{"pk": ddb.S("u"), "sk": ddb.S("x"), "n": ddb.N("1")}) {
		t.Fatalf("DeleteItem: %v, %v", del.Attributes, err)
	}
	_, err = c.GetItem(ctx, &ddb.GetItemInput{TableName: "no-such-table", Key: key})
	if !errors.As(err, &ae) || ae.Code != "ResourceNotFoundException" {
		t.Errorf("GetItem on no table: %v", err)
	}
}

// TestQueryPagesAndBatchGet: a query in pages of 2 reads each item once,
// in order, both ways; BatchGetItem reads what there is.
func TestQueryPagesAndBatchGet(t *testing.T) {
	ctx := t.Context()
	counter := &testenv.CountingTransport{}
	c := testenv.DynamoClient(t, testenv.Dynalite(t), func(o *ddb.Options) { o.HTTPClient = &http.Client{Transport: counter} })
	table := newTable(t, c)
	var keys []ddb.Item
	for i := range 5 {
		it := ddb.Item{"pk": ddb.S("q"), "sk": ddb.S(fmt.Sprintf("k%d", i)), "v": ddb.Int(int64(i))}
		if _, err := c.PutItem(ctx, &ddb.PutItemInput{TableName: table, Item: it}); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, ddb.Item{"pk": it["pk"], "sk": it["sk"]})
	}
	for _, forward := range []bool{true, false} {
		counter.Reset()
		var got []string
		in := &ddb.QueryInput{TableName: table, KeyConditionExpression: "pk = :q", ExpressionAttributeValues: ddb.Item{":q": ddb.S("q")},
			Limit: 2, ConsistentRead: true, ScanIndexForward: &forward}
		err := c.QueryPages(ctx, in, func(out *ddb.QueryOutput) error {
			for _, it := range out.Items {
				got = append(got, string(it["sk"].(ddb.S)))
			}
			return nil
		})
		want := []string{"k0", "k1", "k2", "k3", "k4"}
		if !forward {
			slices.Reverse(want)
		}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("forward %v: %v, %v; want %v", forward, got, err, want)
		}
		if n := counter.Reset(); n != 3 {
			t.Errorf("forward %v: %d requests, want 3", forward, n)
		}
		if in.ExclusiveStartKey != nil {
			t.Error("QueryPages changed its input")
		}
	}
	out, err := c.BatchGetItem(ctx, &ddb.BatchGetItemInput{RequestItems: map[string]ddb.KeysAndAttributes{
		table: {Keys: append(keys[:2:2], ddb.Item{"pk": ddb.S("q"), "sk": ddb.S("none")}), ConsistentRead: true},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range out.Responses[table] {
		got = append(got, string(it["sk"].(ddb.S)))
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"k0", "k1"}) || len(out.UnprocessedKeys[table].Keys) != 0 {
		t.Errorf("BatchGetItem: %v, unprocessed %v", got, out.UnprocessedKeys)
	}
}

// TestBatchWrite: BatchWriteItem puts every item of its batch,
// unconditionally (a put of an item there is replaces it), in one request.
func TestBatchWrite(t *testing.T) {
	ctx := t.Context()
	counter := &testenv.CountingTransport{}
	c := testenv.DynamoClient(t, testenv.Dynalite(t), func(o *ddb.Options) { o.HTTPClient = &http.Client{Transport: counter} })
	table := newTable(t, c)
	if _, err := c.PutItem(ctx, &ddb.PutItemInput{TableName: table, Item: ddb.Item{"pk": ddb.S("w"), "sk": ddb.S("k0"), "v": ddb.Int(-1)}}); err != nil {
		t.Fatal(err)
	}
	var puts []ddb.WriteRequest
	for i := range ddb.MaxBatchWrite {
		puts = append(puts, ddb.WriteRequest{PutRequest: &ddb.PutRequest{Item: ddb.Item{"pk": ddb.S("w"), "sk": ddb.S(fmt.Sprintf("k%d", i)), "v": ddb.Int(int64(i))}}})
	}
	counter.Reset()
	out, err := c.BatchWriteItem(ctx, &ddb.BatchWriteItemInput{RequestItems: map[string][]ddb.WriteRequest{table: puts}})
	if err != nil || len(out.UnprocessedItems[table]) != 0 {
		t.Fatalf("BatchWriteItem: %v, unprocessed %v", err, out.UnprocessedItems)
	}
	if n := counter.Reset(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	for i := range ddb.MaxBatchWrite {
		got, err := c.GetItem(ctx, &ddb.GetItemInput{TableName: table, ConsistentRead: true, Key: ddb.Item{"pk": ddb.S("w"), "sk": ddb.S(fmt.Sprintf("k%d", i))}})
		if err != nil || got.Item["v"] != ddb.Int(int64(i)) {
			t.Errorf("item k%d: %v, %v", i, got.Item, err)
		}
	}
	_, err = c.BatchWriteItem(ctx, &ddb.BatchWriteItemInput{RequestItems: map[string][]ddb.WriteRequest{table: append(puts, puts[0])}})
	var ae *awsapi.APIError
	if !errors.As(err, &ae) || ae.ErrorCode() != "ValidationException" {
		t.Errorf("a batch of %d: %v, want a ValidationException", len(puts)+1, err)
	}
}

// TestRetries: throttling and a damaged answer are tried again, at most
// four times in all as the SDK's DynamoDB client; a failed condition is
// not.
func TestRetries(t *testing.T) {
	for _, tt := range []struct {
		name     string
		answers  []string
		requests int
		wantErr  string
	}{
		{"throttled, then served", []string{"400 ProvisionedThroughputExceededException", "200 ok"}, 2, ""},
		{"throttled throughout", []string{"400 ThrottlingException", "400 ThrottlingException", "400 ThrottlingException", "400 ThrottlingException"}, 4, "ThrottlingException"},
		{"damaged answer, then served", []string{"200 badcrc", "200 ok"}, 2, ""},
		{"failed condition", []string{"400 ConditionalCheckFailedException"}, 1, "ConditionalCheckFailedException"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv, n := awsapitest.JSONServer(t, "1.0", "dynamodb", "DynamoDB_20120810", func(i int, in map[string]any) (int, string) {
				if in["op"] != "PutItem" || in["TableName"] != "t" {
					t.Errorf("input %v", in)
				}
				if i > len(tt.answers) {
					t.Fatalf("request %d, want %d", i, len(tt.answers))
				}
				switch a := tt.answers[i-1]; a {
				case "200 ok":
					return 200, `{}`
				case "200 badcrc":
					return 200, `{"Attributes":{}}`
				default:
					return 400, `{"__type":"com.amazonaws.dynamodb.v20120810#` + strings.TrimPrefix(a, "400 ") + `","message":"m"}`
				}
			})
			crc := &crcTransport{}
			c := ddb.New(awsapitest.Config(srv.URL), func(o *ddb.Options) {
				o.HTTPClient = &http.Client{Transport: crc}
				o.Pause = func(context.Context, time.Duration) error { return nil }
			})
			_, err := c.PutItem(t.Context(), &ddb.PutItemInput{TableName: "t", Item: ddb.Item{"pk": ddb.S("a")}})
			if int(n.Load()) != tt.requests {
				t.Errorf("%d requests, want %d", n.Load(), tt.requests)
			}
			if (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("PutItem: %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// crcTransport gives each answer the CRC32 DynamoDB would, but a wrong one
// for the body {"Attributes":{}}.
type crcTransport struct{}

func (crcTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && resp.ContentLength == int64(len(`{"Attributes":{}}`)) {
		resp.Header.Set("X-Amz-Crc32", "1")
	}
	return resp, err
}
