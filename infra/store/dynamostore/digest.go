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

// digestItem is one queued item as a map in the list AttrDigest.
func digestItem(it store.DigestItem) types.AttributeValue {
	return &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
		"g":  &types.AttributeValueMemberS{Value: it.Game},
		"k":  &types.AttributeValueMemberS{Value: it.Kind},
		"s":  num(int64(it.Seat)),
		"at": num(it.At),
	}}
}

func decodeDigestItem(v types.AttributeValue) (store.DigestItem, error) {
	m, ok := v.(*types.AttributeValueMemberM)
	if !ok {
		return store.DigestItem{}, fmt.Errorf("digest item is not a map")
	}
	var it store.DigestItem
	var err error
	if it.Game, err = optString(m.Value, "g"); err != nil {
		return it, err
	}
	if it.Kind, err = optString(m.Value, "k"); err != nil {
		return it, err
	}
	seat, err := numAttr(m.Value, "s")
	if err != nil {
		return it, err
	}
	it.Seat = int(seat)
	if it.At, err = numAttr(m.Value, "at"); err != nil {
		return it, err
	}
	return it, nil
}

// QueueDigest appends the item with one UpdateItem (list_append), and sets
// dpk and dig, which put the player in the digest index, unless set.
func (s *Store) QueueDigest(ctx context.Context, email string, item store.DigestItem, at int64) error {
	email = normEmail(email)
	if email == "" {
		return errors.New("dynamostore: queue digest for empty address")
	}
	_, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table),
		Key:       playerKey(email),
		UpdateExpression: aws.String("SET #dq = list_append(if_not_exists(#dq, :empty), :item), " +
			"#dig = if_not_exists(#dig, :at), #dpk = :d"),
		ExpressionAttributeNames: map[string]string{"#dq": AttrDigest, "#dig": AttrDigestAt, "#dpk": AttrDigestPK},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":empty": &types.AttributeValueMemberL{Value: []types.AttributeValue{}},
			":item":  &types.AttributeValueMemberL{Value: []types.AttributeValue{digestItem(item)}},
			":at":    num(at),
			":d":     &types.AttributeValueMemberS{Value: digestPK},
		},
	})
	if err := mapErr(err); err != nil {
		return fmt.Errorf("dynamostore: queue digest for %s: %w", email, err)
	}
	return nil
}

// TakeDigest removes the queue and the index attributes with one
// conditional UpdateItem that returns the old item, so nothing queued in
// between is lost. With nothing queued the condition fails and no item is
// created.
func (s *Store) TakeDigest(ctx context.Context, email string) ([]store.DigestItem, error) {
	email = normEmail(email)
	if email == "" {
		return nil, nil
	}
	out, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                aws.String(s.table),
		Key:                      playerKey(email),
		UpdateExpression:         aws.String("REMOVE #dq, #dig, #dpk"),
		ConditionExpression:      aws.String("attribute_exists(#dq)"),
		ExpressionAttributeNames: map[string]string{"#dq": AttrDigest, "#dig": AttrDigestAt, "#dpk": AttrDigestPK},
		ReturnValues:             types.ReturnValueAllOld,
	})
	if err = mapErr(err); errors.Is(err, store.ErrConflict) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("dynamostore: take digest of %s: %w", email, err)
	}
	l, ok := out.Attributes[AttrDigest].(*types.AttributeValueMemberL)
	if !ok {
		return nil, fmt.Errorf("dynamostore: take digest of %s: attribute %s is not a list", email, AttrDigest)
	}
	items := make([]store.DigestItem, 0, len(l.Value))
	for _, v := range l.Value {
		it, err := decodeDigestItem(v)
		if err != nil {
			return nil, fmt.Errorf("dynamostore: take digest of %s: %w", email, err)
		}
		items = append(items, it)
	}
	return items, nil
}

// DigestsDue queries the sparse digest index: partition "D", dig ≤ before.
func (s *Store) DigestsDue(ctx context.Context, before int64) ([]string, error) {
	p := dynamodb.NewQueryPaginator(s.client, &dynamodb.QueryInput{
		TableName:                aws.String(s.table),
		IndexName:                aws.String(DigestIndex),
		KeyConditionExpression:   aws.String("#dpk = :d AND #dig <= :before"),
		ExpressionAttributeNames: map[string]string{"#dpk": AttrDigestPK, "#dig": AttrDigestAt},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":d":      &types.AttributeValueMemberS{Value: digestPK},
			":before": &types.AttributeValueMemberN{Value: strconv.FormatInt(before, 10)},
		},
	})
	var emails []string
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("dynamostore: digests due by %d: %w", before, err)
		}
		for _, item := range out.Items {
			pk, ok := item[AttrPK].(*types.AttributeValueMemberS)
			if !ok || !strings.HasPrefix(pk.Value, playerPrefix) {
				return nil, fmt.Errorf("dynamostore: digests due by %d: unexpected item %v", before, item[AttrPK])
			}
			emails = append(emails, strings.TrimPrefix(pk.Value, playerPrefix))
		}
	}
	return emails, nil
}
