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

// League items (store.LeagueStore), in the same table:
//
//	league item: pk "LEAGUE#<id>", sk the item's key ("league",
//	             "season/0001", …)  ver (N), body (B), and wpk (S, "L")
//	             and wake (N) only while WakeAt is set
//
// The wake index (WakeIndex) so lists the leagues due as it lists the
// games, in a partition of its own ("L"), which the games' Waking never
// reads: no new index, no change to the table. Writes are one conditional
// PutItem on ver, as a game's.
const (
	leaguePrefix = "LEAGUE#"
	leagueWakePK = "L"
)

var _ store.LeagueStore = (*Store)(nil)

func leaguePK(id string) string { return leaguePrefix + id }

// GetLeagueItem reads one item with a strongly consistent GetItem.
func (s *Store) GetLeagueItem(ctx context.Context, league, k string) (store.LeagueItem, error) {
	if league == "" || k == "" {
		return store.LeagueItem{}, fmt.Errorf("dynamostore: get league item with empty league or key: %w", store.ErrNotFound)
	}
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(s.table),
		Key:            key(leaguePK(league), k),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return store.LeagueItem{}, fmt.Errorf("dynamostore: get league %s item %s: %w", league, k, err)
	}
	if out.Item == nil {
		return store.LeagueItem{}, fmt.Errorf("dynamostore: get league %s item %s: %w", league, k, store.ErrNotFound)
	}
	return decodeLeagueItem(league, k, out.Item)
}

func decodeLeagueItem(league, k string, item map[string]types.AttributeValue) (store.LeagueItem, error) {
	it := store.LeagueItem{League: league, Key: k}
	var err error
	if it.Version, err = numAttr(item, AttrVer); err != nil {
		return it, fmt.Errorf("dynamostore: league %s item %s: %w", league, k, err)
	}
	if it.Body, err = binAttr(item, AttrBody); err != nil {
		return it, fmt.Errorf("dynamostore: league %s item %s: %w", league, k, err)
	}
	if _, ok := item[AttrWake]; ok {
		if it.WakeAt, err = numAttr(item, AttrWake); err != nil {
			return it, fmt.Errorf("dynamostore: league %s item %s: %w", league, k, err)
		}
	}
	return it, nil
}

// PutLeagueItem writes it as version prev+1 with one conditional PutItem.
func (s *Store) PutLeagueItem(ctx context.Context, it store.LeagueItem, prev int64) (int64, error) {
	if it.League == "" || it.Key == "" {
		return 0, errors.New("dynamostore: put league item with empty league or key")
	}
	if prev < 0 {
		return 0, fmt.Errorf("dynamostore: put league %s item %s: negative previous version %d", it.League, it.Key, prev)
	}
	ver := prev + 1
	item := key(leaguePK(it.League), it.Key)
	item[AttrVer] = num(ver)
	item[AttrBody] = &types.AttributeValueMemberB{Value: nonNil(it.Body)}
	if it.WakeAt > 0 {
		item[AttrWakePK] = &types.AttributeValueMemberS{Value: leagueWakePK}
		item[AttrWake] = num(it.WakeAt)
	}
	in := &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: item}
	if prev == 0 {
		in.ConditionExpression = aws.String("attribute_not_exists(#pk)")
		in.ExpressionAttributeNames = map[string]string{"#pk": AttrPK}
	} else {
		in.ConditionExpression = aws.String("#ver = :prev")
		in.ExpressionAttributeNames = map[string]string{"#ver": AttrVer}
		in.ExpressionAttributeValues = map[string]types.AttributeValue{":prev": num(prev)}
	}
	if _, err := s.client.PutItem(ctx, in); err != nil {
		return 0, fmt.Errorf("dynamostore: put league %s item %s version %d: %w", it.League, it.Key, ver, mapErr(err))
	}
	return ver, nil
}

// LeagueItems lists a league's items whose key begins with prefix with a
// consistent, paginated Query.
func (s *Store) LeagueItems(ctx context.Context, league, prefix string) ([]store.LeagueItem, error) {
	if league == "" {
		return nil, nil
	}
	cond := "#pk = :pk"
	names := map[string]string{"#pk": AttrPK}
	values := map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: leaguePK(league)}}
	if prefix != "" {
		cond += " AND begins_with(#sk, :prefix)"
		names["#sk"] = AttrSK
		values[":prefix"] = &types.AttributeValueMemberS{Value: prefix}
	}
	var out []store.LeagueItem
	err := s.query(ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		ConsistentRead:            aws.Bool(true),
		KeyConditionExpression:    aws.String(cond),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
	}, func(item map[string]types.AttributeValue) error {
		sk, ok := item[AttrSK].(*types.AttributeValueMemberS)
		if !ok {
			return errors.New("item without sort key")
		}
		it, err := decodeLeagueItem(league, sk.Value, item)
		out = append(out, it)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("dynamostore: items of league %s: %w", league, err)
	}
	return out, nil
}

// LeaguesWaking lists the leagues in the wake index's partition "L" whose
// wake is at most before, with a paginated Query.
func (s *Store) LeaguesWaking(ctx context.Context, before int64) ([]string, error) {
	if before <= 0 {
		return nil, nil
	}
	var ids []string
	seen := map[string]bool{}
	err := s.query(ctx, &dynamodb.QueryInput{
		TableName:                aws.String(s.table),
		IndexName:                aws.String(WakeIndex),
		KeyConditionExpression:   aws.String("#wpk = :l AND #wake <= :before"),
		ExpressionAttributeNames: map[string]string{"#wpk": AttrWakePK, "#wake": AttrWake},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":l":      &types.AttributeValueMemberS{Value: leagueWakePK},
			":before": num(before),
		},
	}, func(item map[string]types.AttributeValue) error {
		pk, ok := item[AttrPK].(*types.AttributeValueMemberS)
		if !ok || !strings.HasPrefix(pk.Value, leaguePrefix) {
			return fmt.Errorf("unexpected item %v", item[AttrPK])
		}
		if id := strings.TrimPrefix(pk.Value, leaguePrefix); !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("dynamostore: leagues waking by %d: %w", before, err)
	}
	return ids, nil
}

// query runs a paginated Query and hands fn every item of every page.
func (s *Store) query(ctx context.Context, in *dynamodb.QueryInput, fn func(map[string]types.AttributeValue) error) error {
	p := dynamodb.NewQueryPaginator(s.client, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		for _, item := range page.Items {
			if err := fn(item); err != nil {
				return err
			}
		}
	}
	return nil
}
