package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/infra/store"
)

// A player's membership of a game is an item of its own beside the
// player item: pk "PLAYER#<address>", sk "MEMBER#<game id>", the order
// key mord (store.Membership.Order), the summary sum (B) and the game's
// version ver (N) it was taken from. The sparse
// index MineIndex, partition pk and sort mord, lists a player's games a
// page at a time in the order "my games" shows them, summaries included:
// a change of rank moves the game in the index, not the item in the table,
// so it is one write without a read.
const (
	AttrMineOrder = "mord"
	AttrSummary   = "sum"
	AttrMineVer   = "ver"
	// MineIndex is the sparse GSI on AttrPK (partition) and AttrMineOrder
	// (sort), projecting the summary.
	MineIndex = "mine"

	memberPrefix = "MEMBER#"
)

var _ store.MembershipStore = (*Store)(nil)

// mineIndex is MineIndex as CreateTable makes it (template.yaml has the
// same).
var mineIndex = types.GlobalSecondaryIndex{
	IndexName: aws.String(MineIndex),
	KeySchema: []types.KeySchemaElement{
		{AttributeName: aws.String(AttrPK), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String(AttrMineOrder), KeyType: types.KeyTypeRange},
	},
	Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{AttrSummary, AttrMineVer}},
}

// PutMembership writes the membership item with one PutItem.
func (s *Store) PutMembership(ctx context.Context, m store.Membership) error {
	email := normEmail(m.Email)
	if email == "" || m.Game == "" {
		return fmt.Errorf("dynamostore: put membership of %q in game %q: empty address or game", email, m.Game)
	}
	m.Email = email
	item := key(playerPrefix+email, memberPrefix+m.Game)
	item[AttrMineOrder] = str(m.Order())
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

// Memberships reads one page of the index with one Query.
func (s *Store) Memberships(ctx context.Context, email, cursor string, limit int) ([]store.Membership, string, error) {
	email = normEmail(email)
	if email == "" || limit < 1 {
		return nil, "", nil
	}
	pk := playerPrefix + email
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		IndexName:                 aws.String(MineIndex),
		KeyConditionExpression:    aws.String("#pk = :pk"),
		ExpressionAttributeNames:  map[string]string{"#pk": AttrPK},
		ExpressionAttributeValues: attrMap{":pk": str(pk)},
		Limit:                     aws.Int32(int32(min(limit, 1000))),
	}
	if cursor != "" {
		game, ok := store.ParseOrder(cursor)
		if !ok {
			return nil, "", fmt.Errorf("dynamostore: memberships of %s: bad cursor %q", email, cursor)
		}
		start := key(pk, memberPrefix+game)
		start[AttrMineOrder] = str(cursor)
		in.ExclusiveStartKey = start
	}
	out, err := s.client.Query(ctx, in)
	if err != nil {
		return nil, "", fmt.Errorf("dynamostore: memberships of %s: %w", email, err)
	}
	ms := make([]store.Membership, 0, len(out.Items))
	for _, it := range out.Items {
		m, err := decodeMembership(email, it)
		if err != nil {
			return nil, "", fmt.Errorf("dynamostore: memberships of %s: %w", email, err)
		}
		ms = append(ms, m)
	}
	next := ""
	if len(out.LastEvaluatedKey) > 0 && len(ms) > 0 {
		next = ms[len(ms)-1].Order()
	}
	return ms, next, nil
}

func decodeMembership(email string, it attrMap) (store.Membership, error) {
	sk, _ := it[AttrSK].(*types.AttributeValueMemberS)
	ord, _ := it[AttrMineOrder].(*types.AttributeValueMemberS)
	if sk == nil || ord == nil || !strings.HasPrefix(sk.Value, memberPrefix) {
		return store.Membership{}, errors.New("membership item without its keys")
	}
	m := store.Membership{Email: email, Game: strings.TrimPrefix(sk.Value, memberPrefix)}
	var err error
	if m.Rank, m.Since, err = store.OrderRank(ord.Value); err != nil {
		return store.Membership{}, err
	}
	if b, ok := it[AttrSummary].(*types.AttributeValueMemberB); ok {
		m.Summary = b.Value
	}
	if m.Version, err = numAttr(it, AttrMineVer); err != nil {
		return store.Membership{}, err
	}
	return m, nil
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
