// Package dynamostore keeps games and players in one DynamoDB table
// (single-table design).
//
// Every item has the string key pair pk (partition) and sk (sort):
//
//	game:  pk "GAME#<id>", sk "GAME"      ver (N), body (B), upd (N),
//	                                      outbox (S) only while pending: the
//	                                      commit's own key (Game.OutboxKey),
//	                                      or "1" if written before keys were,
//	                                      wpk (S, "W") and wake (N) only
//	                                      while WakeAt is set
//	chunk: pk "GAME#<id>", sk "LOG#%08d"  body (B)
//	sent:  pk "GAME#<id>", sk "SENT"      ver (N), body (B): the game's
//	                                      sent marker (sent.go)
//	player: pk "PLAYER#<email>", sk "PLAYER"
//	        lang (S), mail (S), unsub (BOOL), supp (BOOL), supp_reason (S),
//	        supp_at (N), games (SS), upd (N); each absent until written,
//	        and lang, mail and supp_reason removed rather than set to "";
//	        dq (L of M: g S, k S, s N, at N), dpk (S, "D") and dig (N)
//	        only while a daily digest is queued
//	        lid (S) the link id, lgen (N) the link generation
//	access: pk "ACCESS#<id>", sk "ACCESS" ver (N), body (B)
//	guard:  pk "GUARD#<key>", sk "GUARD"  ttl (N), n (N) for a counter
//	talk:   pk "GAME#<id>", sk "TALK#<key>" and "TALK!SEEN#<seat>": a
//	        game's table talk and what each seat was mailed of it (talk.go)
//
// The email of a player's key is lower-case. Every player write is one
// UpdateItem that creates the item if need be; games is a string set that
// grows by ADD, so concurrent adds need no read and lose nothing.
//
// A sparse global secondary index named "outbox", keyed on the attribute
// outbox and projecting keys only, lists the games with unsent mail without
// a scan. Another, named "wake", with partition key wpk and sort key wake
// and projecting keys only, lists the games whose clock falls due by a
// given time (all in the one partition "W", read as a range of wake). A
// third, named "digest", keyed on dpk ("D") and dig, lists the players
// whose daily digest is due in the same way. A
// move costs one GetItem (GetGame) and one conditional PutItem
// (PutGame); no transactions are needed, so the same code runs against AWS
// and against dynalite in tests. Only guard items carry the TTL attribute:
// DynamoDB deletes them once expired, and every read checks the expiry
// too, so that dynalite, which deletes nothing, behaves the same.
//
// The store calls DynamoDB through the SDK's client (service/dynamodb):
// its endpoint rules, retries, credentials, typed errors and middleware.
// Its expressions are constant strings with fixed placeholders, so the
// SDK's expression builder, which would make the same strings anew at
// each call, is not used; attribute values are built and read as the
// SDK's types, and the one nested value, a queued digest item, through
// the SDK's attributevalue marshaller.
package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/pbmgames/pbm/infra/store"
)

// Attribute, key and index names of the table.
const (
	AttrPK     = "pk"
	AttrSK     = "sk"
	AttrVer    = "ver"
	AttrBody   = "body"
	AttrUpd    = "upd"
	AttrOutbox = "outbox"
	AttrWakePK = "wpk"
	AttrWake   = "wake"
	// A player's daily digest: the queued items (L of M), and while any
	// are queued dpk ("D") and dig (N, when the first was queued).
	AttrDigest   = "dq"
	AttrDigestPK = "dpk"
	AttrDigestAt = "dig"

	// OutboxIndex is the sparse GSI on AttrOutbox.
	OutboxIndex = "outbox"
	// WakeIndex is the sparse GSI on AttrWakePK (partition) and AttrWake
	// (sort).
	WakeIndex = "wake"
	// DigestIndex is the sparse GSI on AttrDigestPK (partition) and
	// AttrDigestAt (sort): the players with a digest queued.
	DigestIndex = "digest"

	gamePrefix  = "GAME#"
	gameSK      = "GAME"
	chunkPrefix = "LOG#"
	outboxFlag  = "1"
	wakePK      = "W"
	digestPK    = "D"

	// Personal links (store.LinkStore): a player's link id (S) and link
	// generation (N), set by one UpdateItem each without a read; access
	// items are written by one conditional PutItem on ver, as a game's.
	AttrLinkID   = "lid"
	AttrLinkGen  = "lgen"
	accessPrefix = "ACCESS#"
	accessSK     = "ACCESS"

	// Guard items (store.GuardStore) carry AttrTTL, the table's TTL
	// attribute (template.yaml's TimeToLiveSpecification), so that
	// DynamoDB deletes them once expired; a counter also holds AttrCount.
	// Deletion comes up to days late, so every read checks the expiry too.
	AttrTTL     = "ttl"
	AttrCount   = "n"
	guardPrefix = "GUARD#"
	guardSK     = "GUARD"

	// maxSeq keeps "LOG#%08d" at eight digits so that sk order is Seq order.
	maxSeq = 99_999_999
)

// Store is a store.Store on one DynamoDB table. It is safe for concurrent
// use.
type Store struct {
	client client
	table  string
	// batch bounds the retries of what a batch leaves unprocessed.
	batch retryPolicy
}

// client is the SDK client's operations the store makes, held as
// functions (its method values) rather than as the *dynamodb.Client: a
// field of the client's type, in a type converted to an interface, keeps
// every one of the client's 63 operations and their serialisers in each
// binary that calls methods by reflection (text/template does): 1.4 MB
// of the api and notify functions' 19.2 MB.
type client struct {
	GetItem        func(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	PutItem        func(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	UpdateItem     func(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	Query          queryFunc
	BatchGetItem   func(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
	BatchWriteItem func(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
}

// queryFunc is the client's Query, as the SDK's paginator takes it
// (dynamodb.QueryAPIClient).
type queryFunc func(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)

func (q queryFunc) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return q(ctx, in, optFns...)
}

var (
	_ store.Store       = (*Store)(nil)
	_ store.LinkStore   = (*Store)(nil)
	_ store.GuardStore  = (*Store)(nil)
	_ store.SentStore   = (*Store)(nil)
	_ store.LeagueStore = (*Store)(nil)
)

// Option adjusts a Store.
type Option func(*Store)

// New returns a Store on the given table, which must exist with the layout
// CreateTable makes, through client (dynamodb.NewFromConfig of the
// function's AWS configuration).
func New(c *dynamodb.Client, table string, opts ...Option) *Store {
	s := &Store{table: table, batch: defaultBatchRetry, client: client{GetItem: c.GetItem, PutItem: c.PutItem, UpdateItem: c.UpdateItem,
		Query: c.Query, BatchGetItem: c.BatchGetItem, BatchWriteItem: c.BatchWriteItem}}
	for _, o := range opts {
		o(s)
	}
	return s
}

// CreateTable creates table with the layout Store expects (on-demand
// billing, with the outbox, wake and digest indexes) and waits until it is
// active. It is meant for tests and the local run; in AWS the table comes
// from the template.
func CreateTable(ctx context.Context, client *dynamodb.Client, table string) error {
	keysOnly := &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}
	keySchema := func(hash, rng string) []types.KeySchemaElement {
		ks := []types.KeySchemaElement{{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash}}
		if rng != "" {
			ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(rng), KeyType: types.KeyTypeRange})
		}
		return ks
	}
	attr := func(name string, t types.ScalarAttributeType) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: t}
	}
	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(table),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			attr(AttrPK, types.ScalarAttributeTypeS),
			attr(AttrSK, types.ScalarAttributeTypeS),
			attr(AttrOutbox, types.ScalarAttributeTypeS),
			attr(AttrWakePK, types.ScalarAttributeTypeS),
			attr(AttrWake, types.ScalarAttributeTypeN),
			attr(AttrDigestPK, types.ScalarAttributeTypeS),
			attr(AttrDigestAt, types.ScalarAttributeTypeN),
		},
		KeySchema: keySchema(AttrPK, AttrSK),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String(OutboxIndex), KeySchema: keySchema(AttrOutbox, ""), Projection: keysOnly},
			{IndexName: aws.String(WakeIndex), KeySchema: keySchema(AttrWakePK, AttrWake), Projection: keysOnly},
			{IndexName: aws.String(DigestIndex), KeySchema: keySchema(AttrDigestPK, AttrDigestAt), Projection: keysOnly},
		},
	})
	if err != nil {
		return fmt.Errorf("dynamostore: create table %s: %w", table, err)
	}
	// dynalite with --createTableMs 0 is ready at once; the waiter asks
	// at once, then at most every second.
	w := dynamodb.NewTableExistsWaiter(client, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay, o.MaxDelay = 50*time.Millisecond, time.Second
	})
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)}, 5*time.Minute); err != nil {
		return fmt.Errorf("dynamostore: wait for table %s: %w", table, err)
	}
	return nil
}

func gamePK(id string) string { return gamePrefix + id }

// chunkSK is a chunk's sort key: "LOG#%08d", and "#" and its tag if it
// has one, so that sk order is Seq order, then Tag order.
func chunkSK(seq int, tag string) string {
	if tag == "" {
		return fmt.Sprintf("%s%08d", chunkPrefix, seq)
	}
	return fmt.Sprintf("%s%08d#%s", chunkPrefix, seq, tag)
}

// GetGame reads a game with one strongly consistent GetItem.
func (s *Store) GetGame(ctx context.Context, id string) (store.Game, error) {
	if id == "" {
		return store.Game{}, fmt.Errorf("dynamostore: get game with empty id: %w", store.ErrNotFound)
	}
	return getDecoded(ctx, s, key(gamePK(id), gameSK), "get game", id, decodeGame)
}

// decodeGame reads a game item; wpk and wake are there only while
// WakeAt is set.
func decodeGame(id string, a *attrs) store.Game {
	_, pending := a.item[AttrOutbox]
	key := a.optString(AttrOutbox)
	if key == outboxFlag {
		key = ""
	}
	return store.Game{ID: id, Version: a.num(AttrVer), UpdatedAt: a.num(AttrUpd), Body: a.bin(AttrBody),
		OutboxPending: pending, OutboxKey: key, WakeAt: a.optNum(AttrWake)}
}

// PutGame writes g as version prev+1 with one conditional PutItem.
func (s *Store) PutGame(ctx context.Context, g store.Game, prev int64) (int64, error) {
	if g.ID == "" {
		return 0, errors.New("dynamostore: put game with empty id")
	}
	item := key(gamePK(g.ID), gameSK)
	item[AttrUpd] = num(g.UpdatedAt)
	switch {
	case g.OutboxPending && g.OutboxKey != "":
		if g.OutboxKey == outboxFlag || !store.ValidChunkTag(g.OutboxKey) {
			return 0, fmt.Errorf("dynamostore: put game %s: outbox key %q", g.ID, g.OutboxKey)
		}
		item[AttrOutbox] = str(g.OutboxKey)
	case g.OutboxPending:
		item[AttrOutbox] = str(outboxFlag)
	}
	if g.WakeAt > 0 {
		item[AttrWakePK] = str(wakePK)
		item[AttrWake] = num(g.WakeAt)
	}
	return s.putVersioned(ctx, item, g.Body, prev, "game "+g.ID)
}

// PutChunk writes a chunk once with a conditional PutItem. If the chunk is
// there already, its stored body decides: the same bytes succeed, others
// are ErrConflict. The stored item comes with the failure where the server
// returns it (AWS does, dynalite does not); otherwise it is read back.
func (s *Store) PutChunk(ctx context.Context, c store.Chunk) error {
	if c.GameID == "" {
		return errors.New("dynamostore: put chunk with empty game id")
	}
	if c.Seq < 0 || c.Seq > maxSeq {
		return fmt.Errorf("dynamostore: put chunk %s/%d: seq out of range [0, %d]", c.GameID, c.Seq, maxSeq)
	}
	if !store.ValidChunkTag(c.Tag) {
		return fmt.Errorf("dynamostore: put chunk %s/%d: tag %q", c.GameID, c.Seq, c.Tag)
	}
	item := key(gamePK(c.GameID), chunkSK(c.Seq, c.Tag))
	item[AttrBody] = bin(c.Body)
	_, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                           &s.table,
		Item:                                item,
		ConditionExpression:                 aws.String("attribute_not_exists(#pk)"),
		ExpressionAttributeNames:            map[string]string{"#pk": AttrPK},
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	if err == nil {
		return nil
	}
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		return fmt.Errorf("dynamostore: put chunk %s/%d: %w", c.GameID, c.Seq, mapErr(err))
	}
	old, err := s.failedItem(ctx, ccf, key(gamePK(c.GameID), chunkSK(c.Seq, c.Tag)))
	if err != nil {
		return fmt.Errorf("dynamostore: put chunk %s/%d: %w", c.GameID, c.Seq, err)
	}
	body, berr := binAttr(old, AttrBody)
	if berr != nil {
		return fmt.Errorf("dynamostore: put chunk %s/%d: stored chunk: %w", c.GameID, c.Seq, berr)
	}
	if string(body) != string(c.Body) {
		return fmt.Errorf("dynamostore: put chunk %s/%d: another body is stored: %w", c.GameID, c.Seq, store.ErrConflict)
	}
	return nil
}

// Chunks lists a game's chunks in Seq order with a consistent, paginated
// Query. A game without chunks (or no game at all) gives an empty list.
func (s *Store) Chunks(ctx context.Context, gameID string) ([]store.Chunk, error) {
	if gameID == "" {
		return nil, nil
	}
	var chunks []store.Chunk
	q := keyQuery{cond: "#pk = :pk AND begins_with(#sk, :log)",
		names:  map[string]string{"#pk": AttrPK, "#sk": AttrSK},
		values: attrMap{":pk": str(gamePK(gameID)), ":log": str(chunkPrefix)}}
	err := s.query(ctx, q, "chunks of "+gameID, func(item attrMap) error {
		sk, ok := item[AttrSK].(*types.AttributeValueMemberS)
		if !ok {
			return errors.New("item without sort key")
		}
		num, tag, _ := strings.Cut(strings.TrimPrefix(sk.Value, chunkPrefix), "#")
		seq, err := strconv.Atoi(num)
		if err != nil || len(num) != 8 {
			return fmt.Errorf("bad sort key %q", sk.Value)
		}
		body, err := binAttr(item, AttrBody)
		if err != nil {
			return fmt.Errorf("chunk %d: %w", seq, err)
		}
		chunks = append(chunks, store.Chunk{GameID: gameID, Seq: seq, Tag: tag, Body: body})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return chunks, nil
}

// PendingOutbox lists the games in the outbox index under the flag of
// games written before outbox keys were ("1"), with a paginated Query. A
// global secondary index is eventually consistent in AWS: a game flagged
// or cleared a moment ago may be missed or listed once more.
func (s *Store) PendingOutbox(ctx context.Context) ([]string, error) {
	return s.PendingMail(ctx, outboxFlag)
}

// PendingMail lists the games in the outbox index under key, with a
// paginated Query of that partition of the index.
func (s *Store) PendingMail(ctx context.Context, key string) ([]string, error) {
	if key == "" {
		key = outboxFlag
	}
	q := keyQuery{index: OutboxIndex, cond: "#ob = :key",
		names: map[string]string{"#ob": AttrOutbox}, values: attrMap{":key": str(key)}}
	return s.queryIDs(ctx, q, gamePrefix, "pending mail "+key)
}

// Waking lists the games in the wake index whose wake is at most before
// (WakingDue).
func (s *Store) Waking(ctx context.Context, before int64) ([]string, error) {
	due, err := s.WakingDue(ctx, before)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(due))
	for i, d := range due {
		ids[i] = d.ID
	}
	return ids, nil
}

// mapErr wraps the store's sentinel errors around the service's: a failed
// condition is ErrConflict, an item over the size limit ErrTooLarge.
// DynamoDB names no error of its own for an item too large: it answers a
// ValidationException whose message says the item's size is over the
// limit (AWS and dynalite alike).
func mapErr(err error) error {
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return fmt.Errorf("%w: %w", store.ErrConflict, err)
	}
	var ae smithy.APIError
	if errors.As(err, &ae) && ae.ErrorCode() == "ValidationException" &&
		strings.Contains(strings.ToLower(ae.ErrorMessage()), "size") {
		return fmt.Errorf("%w: %w", store.ErrTooLarge, err)
	}
	return err
}
