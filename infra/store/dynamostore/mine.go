package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/infra/store"
)

// A player's games are items in the player's partition ("PLAYER#<address>")
// beside the player item: a membership at sk "GAME#<inverted creation
// time>#<game id>" and, while the player owes a decision in the game, a
// turn at sk "TURN#<due>#<game id>". Both carry the summary sum (B), a
// membership the game's version ver (N) it was taken from. A page of
// either is one consistent Query of a range of sk, in the order shown.
// No function may delete an item (template.yaml): a turn that passes is
// marked with ttl, which the table's TTL deletes within days and the
// listing skips until then.
const (
	AttrSummary = "sum"
	AttrMineVer = "ver"

	memberPrefix = "GAME#"
	turnPrefix   = "TURN#"
)

var _ store.MembershipStore = (*Store)(nil)

// PutMembership writes the membership item with one conditional PutItem.
func (s *Store) PutMembership(ctx context.Context, m store.Membership) error {
	email := normEmail(m.Email)
	if email == "" || m.Game == "" {
		return fmt.Errorf("dynamostore: put membership of %q in game %q: empty address or game", email, m.Game)
	}
	item := key(playerPrefix+email, memberPrefix+m.Cursor())
	if len(m.Summary) > 0 {
		item[AttrSummary] = &types.AttributeValueMemberB{Value: m.Summary}
	}
	item[AttrMineVer] = num(m.Version)
	_, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: item,
		ConditionExpression:       aws.String("attribute_not_exists(#v) OR #v <= :v"),
		ExpressionAttributeNames:  map[string]string{"#v": AttrMineVer},
		ExpressionAttributeValues: attrMap{":v": num(m.Version)},
	})
	if err := mapErr(err); err != nil {
		return fmt.Errorf("dynamostore: put membership of %s in game %s: %w", email, m.Game, err)
	}
	return nil
}

// pageQuery reads up to limit items of the player's partition whose sk
// starts with prefix, after the sk prefix+after if given, with one Query,
// leaving out those marked gone.
func (s *Store) pageQuery(ctx context.Context, email, prefix, after string, limit int) (*dynamodb.QueryOutput, error) {
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		KeyConditionExpression:    aws.String("#pk = :pk AND begins_with(#sk, :p)"),
		FilterExpression:          aws.String("attribute_not_exists(#ttl)"),
		ExpressionAttributeNames:  map[string]string{"#pk": AttrPK, "#sk": AttrSK, "#ttl": AttrTTL},
		ExpressionAttributeValues: attrMap{":pk": str(playerPrefix + email), ":p": str(prefix)},
		ConsistentRead:            aws.Bool(true),
		Limit:                     aws.Int32(int32(min(limit, 1000))),
	}
	if after != "" {
		in.ExclusiveStartKey = key(playerPrefix+email, prefix+after)
	}
	return s.client.Query(ctx, in)
}

// Memberships reads one page with one Query.
func (s *Store) Memberships(ctx context.Context, email, cursor string, limit int) ([]store.Membership, string, error) {
	email = normEmail(email)
	if cursor != "" && !store.ParseCursor(cursor) {
		return nil, "", fmt.Errorf("dynamostore: memberships of %s: bad cursor %q", email, cursor)
	}
	if email == "" || limit < 1 {
		return nil, "", nil
	}
	out, err := s.pageQuery(ctx, email, memberPrefix, cursor, limit)
	if err != nil {
		return nil, "", fmt.Errorf("dynamostore: memberships of %s: %w", email, err)
	}
	ms := make([]store.Membership, 0, len(out.Items))
	for _, it := range out.Items {
		a := attrs{item: it}
		rest := strings.TrimPrefix(a.optString(AttrSK), memberPrefix)
		inv, game, _ := strings.Cut(rest, "#")
		m := store.Membership{Email: email, Game: game, Summary: summaryOf(it), Version: a.optNum(AttrMineVer)}
		n, err := strconv.ParseInt(inv, 10, 64)
		if err != nil || game == "" {
			return nil, "", fmt.Errorf("dynamostore: memberships of %s: key %q", email, rest)
		}
		m.Created = maxListTime - n
		if a.err != nil {
			return nil, "", fmt.Errorf("dynamostore: memberships of %s: %w", email, a.err)
		}
		ms = append(ms, m)
	}
	next := ""
	if len(out.LastEvaluatedKey) > 0 && len(ms) > 0 {
		next = ms[len(ms)-1].Cursor()
	}
	return ms, next, nil
}

// PutTurn writes the turn item with one PutItem.
func (s *Store) PutTurn(ctx context.Context, t store.Turn) error {
	email := normEmail(t.Email)
	if email == "" || t.Game == "" {
		return fmt.Errorf("dynamostore: put turn of %q in game %q: empty address or game", email, t.Game)
	}
	t.Email = email
	item := key(playerPrefix+email, turnPrefix+t.TurnKey())
	if len(t.Summary) > 0 {
		item[AttrSummary] = &types.AttributeValueMemberB{Value: t.Summary}
	}
	_, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: item})
	if err := mapErr(err); err != nil {
		return fmt.Errorf("dynamostore: put turn of %s in game %s: %w", email, t.Game, err)
	}
	return nil
}

// DeleteTurn marks the turn item gone with one conditional UpdateItem
// (ttl: now), which creates no item when there is none.
func (s *Store) DeleteTurn(ctx context.Context, email, game string, due int64) error {
	email = normEmail(email)
	t := store.Turn{Email: email, Game: game, Due: due}
	_, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(playerPrefix+email, turnPrefix+t.TurnKey()),
		UpdateExpression:          aws.String("SET #ttl = :gone"),
		ConditionExpression:       aws.String("attribute_exists(#pk)"),
		ExpressionAttributeNames:  map[string]string{"#ttl": AttrTTL, "#pk": AttrPK},
		ExpressionAttributeValues: attrMap{":gone": num(1)},
	})
	if err = mapErr(err); errors.Is(err, store.ErrConflict) {
		return nil // no such turn
	}
	if err != nil {
		return fmt.Errorf("dynamostore: delete turn of %s in game %s: %w", email, game, err)
	}
	return nil
}

// Turns reads the first turns with one Query.
func (s *Store) Turns(ctx context.Context, email string, limit int) ([]store.Turn, error) {
	email = normEmail(email)
	if email == "" || limit < 1 {
		return nil, nil
	}
	out, err := s.pageQuery(ctx, email, turnPrefix, "", limit)
	if err != nil {
		return nil, fmt.Errorf("dynamostore: turns of %s: %w", email, err)
	}
	ts := make([]store.Turn, 0, len(out.Items))
	for _, it := range out.Items {
		a := attrs{item: it}
		rest := strings.TrimPrefix(a.optString(AttrSK), turnPrefix)
		due, game, _ := strings.Cut(rest, "#")
		t := store.Turn{Email: email, Game: game, Summary: summaryOf(it)}
		var err error
		if t.Due, err = strconv.ParseInt(due, 10, 64); err != nil || game == "" {
			return nil, fmt.Errorf("dynamostore: turns of %s: key %q", email, rest)
		}
		if a.err != nil {
			return nil, fmt.Errorf("dynamostore: turns of %s: %w", email, a.err)
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// ForgetPlayerGames deletes ids from the player item's game set with one
// UpdateItem (DELETE from a string set; an emptied set is removed).
func (s *Store) ForgetPlayerGames(ctx context.Context, email string, ids []string) error {
	email = normEmail(email)
	if email == "" || len(ids) == 0 {
		return nil
	}
	_, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       playerKey(email),
		UpdateExpression:          aws.String("DELETE #g :ids"),
		ConditionExpression:       aws.String("attribute_exists(#g)"),
		ExpressionAttributeNames:  map[string]string{"#g": AttrGames},
		ExpressionAttributeValues: attrMap{":ids": &types.AttributeValueMemberSS{Value: ids}},
	})
	if err = mapErr(err); err != nil && !errors.Is(err, store.ErrConflict) {
		return fmt.Errorf("dynamostore: forget games of player %s: %w", email, err)
	}
	return nil
}

// summaryOf is the summary of a membership or turn item; nil if none.
func summaryOf(it attrMap) []byte {
	if b, ok := it[AttrSummary].(*types.AttributeValueMemberB); ok {
		return b.Value
	}
	return nil
}

// maxListTime is store's bound on times in listing keys.
const maxListTime = 9_999_999_999
