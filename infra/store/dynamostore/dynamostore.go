// Package dynamostore keeps games and players in one DynamoDB table
// (single-table design).
//
// Every item has the string key pair pk (partition) and sk (sort):
//
//	game:  pk "GAME#<id>", sk "GAME"      ver (N), body (B), upd (N),
//	                                      outbox (S, "1") only while pending,
//	                                      wpk (S, "W") and wake (N) only
//	                                      while WakeAt is set
//	chunk: pk "GAME#<id>", sk "LOG#%08d"  body (B)
//	player: pk "PLAYER#<email>", sk "PLAYER"
//	        lang (S), mail (S), unsub (BOOL), supp (BOOL), supp_reason (S),
//	        supp_at (N), games (SS), upd (N); each absent until written,
//	        and lang, mail and supp_reason removed rather than set to "";
//	        dq (L of M: g S, k S, s N, at N), dpk (S, "D") and dig (N)
//	        only while a daily digest is queued
//	guard:  pk "GUARD#<key>", sk "GUARD"  ttl (N), n (N) for a counter
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
package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
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

	// maxSeq keeps "LOG#%08d" at eight digits so that sk order is Seq order.
	maxSeq = 99_999_999
)

// Store is a store.Store on one DynamoDB table. It is safe for concurrent
// use.
type Store struct {
	client *dynamodb.Client
	table  string
}

var _ store.Store = (*Store)(nil)

// New returns a Store on the given table, which must exist with the layout
// CreateTable makes.
func New(client *dynamodb.Client, table string) *Store {
	return &Store{client: client, table: table}
}

// NewLocalClient returns a DynamoDB client for a DynamoDB-compatible server
// at endpoint (such as dynalite, e.g. "http://127.0.0.1:4567"): region
// us-east-1 and static dummy credentials, so that nothing is read from the
// environment. optFns adjust the options further (an HTTP client, say). In
// AWS build the client from the default config instead.
func NewLocalClient(endpoint string, optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
	}, optFns...)
}

// CreateTable creates table with the layout Store expects (on-demand
// billing, with the outbox, wake and digest indexes) and waits until it is
// active. It is meant for tests and the local run; in AWS the table comes
// from the template.
func CreateTable(ctx context.Context, client *dynamodb.Client, table string) error {
	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(table),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String(AttrPK), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(AttrSK), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(AttrOutbox), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(AttrWakePK), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(AttrWake), AttributeType: types.ScalarAttributeTypeN},
			{AttributeName: aws.String(AttrDigestPK), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(AttrDigestAt), AttributeType: types.ScalarAttributeTypeN},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(AttrPK), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(AttrSK), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName: aws.String(OutboxIndex),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String(AttrOutbox), KeyType: types.KeyTypeHash},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}, {
			IndexName: aws.String(WakeIndex),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String(AttrWakePK), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String(AttrWake), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}, {
			IndexName: aws.String(DigestIndex),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String(AttrDigestPK), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String(AttrDigestAt), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
	})
	if err != nil {
		return fmt.Errorf("dynamostore: create table %s: %w", table, err)
	}
	w := dynamodb.NewTableExistsWaiter(client, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 50 * time.Millisecond // dynalite with --createTableMs 0 is ready at once
	})
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)}, 5*time.Minute); err != nil {
		return fmt.Errorf("dynamostore: wait for table %s: %w", table, err)
	}
	return nil
}

func gamePK(id string) string { return gamePrefix + id }

func chunkSK(seq int) string { return fmt.Sprintf("%s%08d", chunkPrefix, seq) }

func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		AttrPK: &types.AttributeValueMemberS{Value: pk},
		AttrSK: &types.AttributeValueMemberS{Value: sk},
	}
}

// GetGame reads a game with one strongly consistent GetItem.
func (s *Store) GetGame(ctx context.Context, id string) (store.Game, error) {
	if id == "" {
		return store.Game{}, fmt.Errorf("dynamostore: get game with empty id: %w", store.ErrNotFound)
	}
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(s.table),
		Key:            key(gamePK(id), gameSK),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return store.Game{}, fmt.Errorf("dynamostore: get game %s: %w", id, err)
	}
	if out.Item == nil {
		return store.Game{}, fmt.Errorf("dynamostore: get game %s: %w", id, store.ErrNotFound)
	}
	g, err := decodeGame(id, out.Item)
	if err != nil {
		return store.Game{}, fmt.Errorf("dynamostore: get game %s: %w", id, err)
	}
	return g, nil
}

func decodeGame(id string, item map[string]types.AttributeValue) (store.Game, error) {
	g := store.Game{ID: id}
	var err error
	if g.Version, err = numAttr(item, AttrVer); err != nil {
		return store.Game{}, err
	}
	if g.UpdatedAt, err = numAttr(item, AttrUpd); err != nil {
		return store.Game{}, err
	}
	if g.Body, err = binAttr(item, AttrBody); err != nil {
		return store.Game{}, err
	}
	_, g.OutboxPending = item[AttrOutbox]
	if _, ok := item[AttrWake]; ok {
		if g.WakeAt, err = numAttr(item, AttrWake); err != nil {
			return store.Game{}, err
		}
	}
	return g, nil
}

func numAttr(item map[string]types.AttributeValue, name string) (int64, error) {
	v, ok := item[name].(*types.AttributeValueMemberN)
	if !ok {
		return 0, fmt.Errorf("attribute %s missing or not a number", name)
	}
	n, err := strconv.ParseInt(v.Value, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("attribute %s: %w", name, err)
	}
	return n, nil
}

func binAttr(item map[string]types.AttributeValue, name string) ([]byte, error) {
	v, ok := item[name].(*types.AttributeValueMemberB)
	if !ok {
		return nil, fmt.Errorf("attribute %s missing or not binary", name)
	}
	return v.Value, nil
}

// PutGame writes g as version prev+1 with one conditional PutItem.
func (s *Store) PutGame(ctx context.Context, g store.Game, prev int64) (int64, error) {
	if g.ID == "" {
		return 0, errors.New("dynamostore: put game with empty id")
	}
	if prev < 0 {
		return 0, fmt.Errorf("dynamostore: put game %s: negative previous version %d", g.ID, prev)
	}
	ver := prev + 1
	item := key(gamePK(g.ID), gameSK)
	item[AttrVer] = &types.AttributeValueMemberN{Value: strconv.FormatInt(ver, 10)}
	item[AttrUpd] = &types.AttributeValueMemberN{Value: strconv.FormatInt(g.UpdatedAt, 10)}
	item[AttrBody] = &types.AttributeValueMemberB{Value: nonNil(g.Body)}
	if g.OutboxPending {
		item[AttrOutbox] = &types.AttributeValueMemberS{Value: outboxFlag}
	}
	if g.WakeAt > 0 {
		item[AttrWakePK] = &types.AttributeValueMemberS{Value: wakePK}
		item[AttrWake] = &types.AttributeValueMemberN{Value: strconv.FormatInt(g.WakeAt, 10)}
	}
	in := &dynamodb.PutItemInput{
		TableName: aws.String(s.table),
		Item:      item,
	}
	if prev == 0 {
		in.ConditionExpression = aws.String("attribute_not_exists(#pk)")
		in.ExpressionAttributeNames = map[string]string{"#pk": AttrPK}
	} else {
		in.ConditionExpression = aws.String("#ver = :prev")
		in.ExpressionAttributeNames = map[string]string{"#ver": AttrVer}
		in.ExpressionAttributeValues = map[string]types.AttributeValue{
			":prev": &types.AttributeValueMemberN{Value: strconv.FormatInt(prev, 10)},
		}
	}
	if _, err := s.client.PutItem(ctx, in); err != nil {
		return 0, fmt.Errorf("dynamostore: put game %s version %d: %w", g.ID, ver, mapErr(err))
	}
	return ver, nil
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
	item := key(gamePK(c.GameID), chunkSK(c.Seq))
	item[AttrBody] = &types.AttributeValueMemberB{Value: nonNil(c.Body)}
	_, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                           aws.String(s.table),
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
	old := ccf.Item
	if old == nil {
		out, gerr := s.client.GetItem(ctx, &dynamodb.GetItemInput{
			TableName:      aws.String(s.table),
			Key:            key(gamePK(c.GameID), chunkSK(c.Seq)),
			ConsistentRead: aws.Bool(true),
		})
		if gerr != nil {
			return fmt.Errorf("dynamostore: put chunk %s/%d: read back: %w", c.GameID, c.Seq, gerr)
		}
		old = out.Item
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
	p := dynamodb.NewQueryPaginator(s.client, &dynamodb.QueryInput{
		TableName:              aws.String(s.table),
		ConsistentRead:         aws.Bool(true),
		KeyConditionExpression: aws.String("#pk = :pk AND begins_with(#sk, :log)"),
		ExpressionAttributeNames: map[string]string{
			"#pk": AttrPK,
			"#sk": AttrSK,
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk":  &types.AttributeValueMemberS{Value: gamePK(gameID)},
			":log": &types.AttributeValueMemberS{Value: chunkPrefix},
		},
	})
	var chunks []store.Chunk
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("dynamostore: chunks of %s: %w", gameID, err)
		}
		for _, item := range out.Items {
			sk, ok := item[AttrSK].(*types.AttributeValueMemberS)
			if !ok {
				return nil, fmt.Errorf("dynamostore: chunks of %s: item without sort key", gameID)
			}
			seq, err := strconv.Atoi(strings.TrimPrefix(sk.Value, chunkPrefix))
			if err != nil {
				return nil, fmt.Errorf("dynamostore: chunks of %s: bad sort key %q", gameID, sk.Value)
			}
			body, err := binAttr(item, AttrBody)
			if err != nil {
				return nil, fmt.Errorf("dynamostore: chunks of %s: chunk %d: %w", gameID, seq, err)
			}
			chunks = append(chunks, store.Chunk{GameID: gameID, Seq: seq, Body: body})
		}
	}
	return chunks, nil
}

// PendingOutbox lists the games in the outbox index with a paginated Query.
// A global secondary index is eventually consistent in AWS: a game flagged
// or cleared a moment ago may be missed or listed once more.
func (s *Store) PendingOutbox(ctx context.Context) ([]string, error) {
	p := dynamodb.NewQueryPaginator(s.client, &dynamodb.QueryInput{
		TableName:                aws.String(s.table),
		IndexName:                aws.String(OutboxIndex),
		KeyConditionExpression:   aws.String("#ob = :one"),
		ExpressionAttributeNames: map[string]string{"#ob": AttrOutbox},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":one": &types.AttributeValueMemberS{Value: outboxFlag},
		},
	})
	var ids []string
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("dynamostore: pending outbox: %w", err)
		}
		for _, item := range out.Items {
			pk, ok := item[AttrPK].(*types.AttributeValueMemberS)
			if !ok || !strings.HasPrefix(pk.Value, gamePrefix) {
				return nil, fmt.Errorf("dynamostore: pending outbox: unexpected item %v", item[AttrPK])
			}
			ids = append(ids, strings.TrimPrefix(pk.Value, gamePrefix))
		}
	}
	return ids, nil
}

// Waking lists the games in the wake index whose wake is at most before,
// with a paginated Query. The index is eventually consistent in AWS, as
// PendingOutbox's is.
func (s *Store) Waking(ctx context.Context, before int64) ([]string, error) {
	if before <= 0 {
		return nil, nil // no game wakes at or before 0
	}
	p := dynamodb.NewQueryPaginator(s.client, &dynamodb.QueryInput{
		TableName:              aws.String(s.table),
		IndexName:              aws.String(WakeIndex),
		KeyConditionExpression: aws.String("#wpk = :w AND #wake <= :before"),
		ExpressionAttributeNames: map[string]string{
			"#wpk":  AttrWakePK,
			"#wake": AttrWake,
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":w":      &types.AttributeValueMemberS{Value: wakePK},
			":before": &types.AttributeValueMemberN{Value: strconv.FormatInt(before, 10)},
		},
	})
	var ids []string
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("dynamostore: waking by %d: %w", before, err)
		}
		for _, item := range out.Items {
			pk, ok := item[AttrPK].(*types.AttributeValueMemberS)
			if !ok || !strings.HasPrefix(pk.Value, gamePrefix) {
				return nil, fmt.Errorf("dynamostore: waking by %d: unexpected item %v", before, item[AttrPK])
			}
			ids = append(ids, strings.TrimPrefix(pk.Value, gamePrefix))
		}
	}
	return ids, nil
}

// mapErr wraps the store's sentinel errors around the service's: a failed
// condition is ErrConflict, an item over the size limit ErrTooLarge.
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

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
