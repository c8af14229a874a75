package dynamostore

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/infra/store"
)

// digestItem is one queued item as a map in the list AttrDigest.
func digestItem(it store.DigestItem) types.AttributeValue {
	return &types.AttributeValueMemberM{Value: attrMap{
		"g":  str(it.Game),
		"k":  str(it.Kind),
		"s":  num(int64(it.Seat)),
		"at": num(it.At),
	}}
}

func decodeDigestItem(v types.AttributeValue) (store.DigestItem, error) {
	m, ok := v.(*types.AttributeValueMemberM)
	if !ok {
		return store.DigestItem{}, fmt.Errorf("digest item is not a map")
	}
	a := attrs{item: m.Value}
	it := store.DigestItem{Game: a.optString("g"), Kind: a.optString("k"), Seat: int(a.num("s")), At: a.num("at")}
	return it, a.err
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
		ExpressionAttributeValues: attrMap{
			":empty": &types.AttributeValueMemberL{Value: []types.AttributeValue{}},
			":item":  &types.AttributeValueMemberL{Value: []types.AttributeValue{digestItem(item)}},
			":at":    num(at),
			":d":     str(digestPK),
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
	return s.queryIDs(ctx, DigestIndex, "#dpk = :d AND #dig <= :before",
		map[string]string{"#dpk": AttrDigestPK, "#dig": AttrDigestAt}, attrMap{":d": str(digestPK), ":before": num(before)},
		playerPrefix, fmt.Sprintf("digests due by %d", before))
}
