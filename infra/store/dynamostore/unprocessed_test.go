package dynamostore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/testenv"
)

// unprocessedProxy stands in front of dynalite and answers its batch
// operations as DynamoDB does under load or past a batch's size limits:
// of a BatchGetItem it forwards only part of the keys and answers the
// rest as UnprocessedKeys, of a BatchWriteItem only part of the writes,
// the rest answered as UnprocessedItems. How many it leaves of each
// request is leave's answer, given the request's number among the batch
// requests (from 1) and its count of keys or writes. Every other request
// passes as it is. dynalite does not check signatures, so the shortened
// request needs none anew; the answer's X-Amz-Crc32, which the client
// checks, is computed again.
type unprocessedProxy struct {
	url   string
	leave func(n, count int) int

	mu      sync.Mutex
	batches int            // batch requests seen
	left    []int          // what was left of each
	sent    map[string]int // keys or writes forwarded, by operation
}

func newUnprocessedProxy(t *testing.T, dynalite string, leave func(n, count int) int) *unprocessedProxy {
	t.Helper()
	target, err := url.Parse(dynalite)
	if err != nil {
		t.Fatal(err)
	}
	p := &unprocessedProxy{leave: leave, sent: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := p.serve(w, r, target); err != nil {
			t.Errorf("proxy: %v", err)
			http.Error(w, err.Error(), http.StatusBadGateway)
		}
	}))
	t.Cleanup(srv.Close)
	p.url = srv.URL
	return p
}

// requests is how many batch requests came, and what was left of each.
func (p *unprocessedProxy) requests() (int, []int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.batches, append([]int(nil), p.left...)
}

// forwarded is how many keys or writes of op went on to dynalite.
func (p *unprocessedProxy) forwarded(op string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sent[op]
}

func (p *unprocessedProxy) serve(w http.ResponseWriter, r *http.Request, target *url.URL) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	op := r.Header.Get("X-Amz-Target")
	op = op[strings.LastIndexByte(op, '.')+1:]
	var held map[string]any // what the answer gives back as unprocessed
	if op == "BatchGetItem" || op == "BatchWriteItem" {
		if body, held, err = p.split(op, body); err != nil {
			return err
		}
	}
	out, err := http.NewRequestWithContext(r.Context(), r.Method, target.String()+r.URL.Path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	out.Header = r.Header.Clone()
	out.Header.Del("Content-Length")
	resp, err := http.DefaultTransport.RoundTrip(out)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if held != nil && resp.StatusCode == http.StatusOK {
		var m map[string]any
		if err := json.Unmarshal(answer, &m); err != nil {
			return fmt.Errorf("%s answer: %w", op, err)
		}
		if op == "BatchGetItem" {
			m["UnprocessedKeys"] = held
		} else {
			m["UnprocessedItems"] = held
		}
		if answer, err = json.Marshal(m); err != nil {
			return err
		}
	}
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
	w.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(answer)), 10))
	w.WriteHeader(resp.StatusCode)
	_, err = w.Write(answer)
	return err
}

// split takes leave's count of keys (BatchGetItem) or writes
// (BatchWriteItem) off the end of each table's list in the request, and
// returns the request without them and them as the answer's
// UnprocessedKeys or UnprocessedItems.
func (p *unprocessedProxy) split(op string, body []byte) ([]byte, map[string]any, error) {
	var in map[string]any
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, nil, fmt.Errorf("%s input: %w", op, err)
	}
	tables, _ := in["RequestItems"].(map[string]any)
	p.mu.Lock()
	p.batches++
	n := p.batches
	p.mu.Unlock()
	held := map[string]any{}
	total := 0
	for table, v := range tables {
		var list []any
		var keys map[string]any
		if op == "BatchGetItem" {
			keys, _ = v.(map[string]any)
			list, _ = keys["Keys"].([]any)
		} else {
			list, _ = v.([]any)
		}
		k := min(max(p.leave(n, len(list)), 0), len(list))
		// At least one must go through: DynamoDB never answers a batch
		// with nothing done, and an empty list is not a valid request.
		if k == len(list) && k > 0 {
			k--
		}
		keep, rest := list[:len(list)-k], list[len(list)-k:]
		total += len(rest)
		p.mu.Lock()
		p.sent[op] += len(keep)
		p.mu.Unlock()
		if len(rest) == 0 {
			continue
		}
		if op == "BatchGetItem" {
			heldKeys := map[string]any{}
			for name, val := range keys {
				heldKeys[name] = val
			}
			heldKeys["Keys"] = rest
			keys["Keys"] = keep
			held[table] = heldKeys
		} else {
			tables[table] = keep
			held[table] = rest
		}
	}
	p.mu.Lock()
	p.left = append(p.left, total)
	p.mu.Unlock()
	out, err := json.Marshal(in)
	return out, held, err
}

// unprocessedTable is a new table of 40 games with their sent markers on
// dynalite, their ids, and 25 of them as due for a tick.
func unprocessedTable(t *testing.T) (table string, ids []string, due []store.Due) {
	t.Helper()
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	table = newTable(t, client)
	s := dynamostore.New(client, table)
	for i := range 40 {
		id := fmt.Sprintf("g%02d", i)
		if _, err := s.PutGame(context.Background(), store.Game{ID: id, Body: []byte(id), UpdatedAt: int64(i)}, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.PutSent(context.Background(), store.Sent{GameID: id, Body: []byte("sent " + id)}, 0); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
		if i < store.MaxTickRequests {
			due = append(due, store.Due{ID: id, At: 1_764_590_000 + int64(i)})
		}
	}
	return table, ids, due
}

// TestBatchRetriesUnprocessed: what the server leaves unprocessed of a
// batch read or write is asked again until none is left (here half of
// what is asked, twice). Before, GetGames asked again at once, without a
// pause (on the old client: 3 requests in 8 ms), and RequestTicks paused
// without a bound on the requests.
func TestBatchRetriesUnprocessed(t *testing.T) {
	ctx := context.Background()
	table, ids, due := unprocessedTable(t)
	halfTwice := func(n, count int) int {
		if n <= 2 {
			return count / 2
		}
		return 0
	}

	p := newUnprocessedProxy(t, testenv.Dynalite(t), halfTwice)
	s := dynamostore.New(testenv.DynamoClient(t, p.url), table)
	games, err := s.GetGames(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	if n, left := p.requests(); len(games) != len(ids) || n != 3 || !slices.Equal(left, []int{20, 10, 0}) {
		t.Errorf("GetGames: %d games of %d, in %d requests leaving %v; want all in 3 leaving 20, 10, 0", len(games), len(ids), n, left)
	}

	p = newUnprocessedProxy(t, testenv.Dynalite(t), halfTwice)
	s = dynamostore.New(testenv.DynamoClient(t, p.url), table)
	games, markers, err := s.GetGamesSent(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := p.requests(); len(games) != len(ids) || len(markers) != len(ids) || n != 3 {
		t.Errorf("GetGamesSent: %d games and %d markers of %d, in %d requests; want all in 3", len(games), len(markers), len(ids), n)
	}
	for _, id := range ids {
		if string(games[id].Body) != id || string(markers[id].Body) != "sent "+id {
			t.Fatalf("GetGamesSent: game %s %q, marker %q", id, games[id].Body, markers[id].Body)
		}
	}

	p = newUnprocessedProxy(t, testenv.Dynalite(t), halfTwice)
	s = dynamostore.New(testenv.DynamoClient(t, p.url), table)
	if err := s.RequestTicks(ctx, due); err != nil {
		t.Fatal(err)
	}
	if n, left := p.requests(); n != 3 || !slices.Equal(left, []int{12, 6, 0}) || p.forwarded("BatchWriteItem") != len(due) {
		t.Errorf("RequestTicks: %d requests leaving %v, %d writes made; want 3 leaving 12, 6, 0 and %d writes", n, left, p.forwarded("BatchWriteItem"), len(due))
	}
	check := testenv.DynamoClient(t, testenv.Dynalite(t))
	for _, d := range due {
		out, err := check.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, ConsistentRead: aws.Bool(true), Key: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "GAME#" + d.ID},
			"sk": &types.AttributeValueMemberS{Value: fmt.Sprintf("TICK#%012d", d.At)},
		}})
		if err != nil || out.Item == nil {
			t.Fatalf("the tick request of %v: %v, %v", d, out, err)
		}
	}
}

// TestBatchRetryBound: a server that leaves all but one of every batch
// unprocessed makes a batch give up after its bound on requests, with an
// error saying how many were left. Before, GetGames asked again and again
// at once (on the old client: 40 requests back to back in 34 ms, one key
// each) and RequestTicks never gave up (still at it when the test's
// context ended it after 2 s: 8 requests, 17 writes left).
func TestBatchRetryBound(t *testing.T) {
	ctx := context.Background()
	table, ids, due := unprocessedTable(t)
	allButOne := func(_, count int) int { return count - 1 }
	const attempts = 4

	p := newUnprocessedProxy(t, testenv.Dynalite(t), allButOne)
	s := dynamostore.New(testenv.DynamoClient(t, p.url), table, dynamostore.BatchRetry(attempts, time.Millisecond, 4*time.Millisecond))
	_, err := s.GetGames(ctx, ids)
	if !errors.Is(err, dynamostore.ErrUnprocessed) || !strings.Contains(err.Error(), fmt.Sprintf("%d keys left unprocessed after %d requests", len(ids)-attempts, attempts)) {
		t.Errorf("GetGames: %v; want %d keys left unprocessed after %d requests", err, len(ids)-attempts, attempts)
	}
	if n, _ := p.requests(); n != attempts {
		t.Errorf("GetGames: %d requests, want %d", n, attempts)
	}

	p = newUnprocessedProxy(t, testenv.Dynalite(t), allButOne)
	s = dynamostore.New(testenv.DynamoClient(t, p.url), table, dynamostore.BatchRetry(attempts, time.Millisecond, 4*time.Millisecond))
	err = s.RequestTicks(ctx, due)
	if !errors.Is(err, dynamostore.ErrUnprocessed) || !strings.Contains(err.Error(), fmt.Sprintf("%d writes left unprocessed after %d requests", len(due)-attempts, attempts)) {
		t.Errorf("RequestTicks: %v; want %d writes left unprocessed after %d requests", err, len(due)-attempts, attempts)
	}
	if n, _ := p.requests(); n != attempts {
		t.Errorf("RequestTicks: %d requests, want %d", n, attempts)
	}

	// The default bound, without a test's short waits: it gives up too.
	p = newUnprocessedProxy(t, testenv.Dynalite(t), allButOne)
	s = dynamostore.New(testenv.DynamoClient(t, p.url), table)
	if _, err := s.GetGames(ctx, ids[:20]); !errors.Is(err, dynamostore.ErrUnprocessed) {
		t.Errorf("GetGames with the default bound: %v, want ErrUnprocessed", err)
	}
	if n, _ := p.requests(); n >= 20 {
		t.Errorf("GetGames with the default bound: %d requests, want fewer than the 20 keys", n)
	}
}
