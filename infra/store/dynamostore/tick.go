package dynamostore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/infra/store"
)

// A tick request ("GAME#<id>", "TICK#<wake>", store.TickRequester) asks
// for the game to be ticked for that wake: the table's stream hands its
// insertion to the notify function (template.yaml's stream filter,
// streams.TickPrefix), which ticks the game. It carries nothing else, so
// the request of a game and wake written twice is one item, written once;
// it expires by TTL a day after its wake.
const (
	tickPrefix = "TICK#"
	tickTTL    = 24 * time.Hour
)

var _ store.TickRequester = (*Store)(nil)

// tickSK keeps the wake at twelve digits, so that sk order is wake order.
func tickSK(wake int64) string { return fmt.Sprintf("%s%012d", tickPrefix, wake) }

// WakingDue lists the games in the wake index whose wake is at most
// before, with their wakes, with a paginated Query (the index's keys
// carry the wake). The index is eventually consistent in AWS.
func (s *Store) WakingDue(ctx context.Context, before int64) ([]store.Due, error) {
	if before <= 0 {
		return nil, nil // no game wakes at or before 0
	}
	q := keyQuery{index: WakeIndex, cond: "#wpk = :w AND #wake <= :before",
		names:  map[string]string{"#wpk": AttrWakePK, "#wake": AttrWake},
		values: attrMap{":w": str(wakePK), ":before": num(before)}}
	var due []store.Due
	err := s.query(ctx, q, fmt.Sprintf("waking by %d", before), func(it attrMap) error {
		id, isGame := strings.CutPrefix(sAttr(it, AttrPK), gamePrefix)
		if !isGame {
			return fmt.Errorf("unexpected item %q", sAttr(it, AttrPK))
		}
		at, err := numAttr(it, AttrWake)
		if err != nil {
			return fmt.Errorf("game %s: %w", id, err)
		}
		due = append(due, store.Due{ID: id, At: at})
		return nil
	})
	return due, err
}

// RequestTicks writes the requests with one BatchWriteItem, and more for
// whatever DynamoDB left unwritten (it may, under load), after a backoff,
// a bounded number of times (BatchRetry).
func (s *Store) RequestTicks(ctx context.Context, due []store.Due) error {
	if len(due) > store.MaxTickRequests {
		return fmt.Errorf("dynamostore: request %d ticks at once, at most %d", len(due), store.MaxTickRequests)
	}
	puts := make([]types.WriteRequest, 0, len(due))
	seen := make(map[store.Due]bool, len(due))
	for _, d := range due {
		if d.ID == "" || d.At <= 0 {
			return fmt.Errorf("dynamostore: request a tick of %q for %d", d.ID, d.At)
		}
		if seen[d] { // a batch may not put one item twice
			continue
		}
		seen[d] = true
		puts = append(puts, types.WriteRequest{PutRequest: &types.PutRequest{Item: attrMap{
			AttrPK:  str(gamePK(d.ID)),
			AttrSK:  str(tickSK(d.At)),
			AttrTTL: num(time.Unix(d.At, 0).Add(tickTTL).Unix()),
		}}})
	}
	if len(puts) == 0 {
		return nil
	}
	n := len(puts)
	err := s.writeBatch(ctx, puts)
	if err != nil {
		return fmt.Errorf("dynamostore: request %d ticks: %w", n, err)
	}
	return nil
}
