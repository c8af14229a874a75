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

// Count is one UpdateItem that adds one under the condition that the
// counter is absent, or live and under limit. When the condition fails
// on an expired counter (not yet deleted), one conditional PutItem
// starts it again; of racing restarts one wins and the others count
// again.
func (s *Store) Count(ctx context.Context, k string, limit, expires, now int64) error {
	if k == "" {
		return errors.New("dynamostore: count with empty key")
	}
	for attempt := 0; ; attempt++ {
		_, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                           &s.table,
			Key:                                 guardKey(k),
			UpdateExpression:                    aws.String("SET #ttl = if_not_exists(#ttl, :exp) ADD #n :one"),
			ConditionExpression:                 aws.String("attribute_not_exists(#n) OR (#n < :lim AND #ttl > :now)"),
			ExpressionAttributeNames:            map[string]string{"#n": AttrCount, "#ttl": AttrTTL},
			ExpressionAttributeValues:           attrMap{":exp": num(expires), ":one": num(1), ":lim": num(limit), ":now": num(now)},
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		})
		var ccf *types.ConditionalCheckFailedException
		if err == nil || !errors.As(err, &ccf) {
			if err != nil {
				return fmt.Errorf("dynamostore: count %s: %w", k, err)
			}
			return nil
		}
		old, err := s.failedItem(ctx, ccf, guardKey(k))
		if err != nil {
			return fmt.Errorf("dynamostore: count %s: %w", k, err)
		}
		ttl, terr := numAttr(old, AttrTTL)
		if terr != nil {
			return fmt.Errorf("dynamostore: count %s: stored counter: %w", k, terr)
		}
		if ttl > now {
			return fmt.Errorf("dynamostore: count %s: %w", k, store.ErrLimited)
		}
		item := guardKey(k)
		item[AttrCount], item[AttrTTL] = num(1), num(expires)
		_, err = s.client.PutItem(ctx, &dynamodb.PutItemInput{
			TableName:                 &s.table,
			Item:                      item,
			ConditionExpression:       aws.String("#ttl = :old"),
			ExpressionAttributeNames:  map[string]string{"#ttl": AttrTTL},
			ExpressionAttributeValues: attrMap{":old": num(ttl)},
		})
		if err == nil {
			return nil
		}
		if !errors.As(err, &ccf) || attempt >= 3 {
			return fmt.Errorf("dynamostore: count %s: restart expired counter: %w", k, err)
		}
	}
}

// Mark is one PutItem.
func (s *Store) Mark(ctx context.Context, k string, expires int64) error {
	if k == "" {
		return errors.New("dynamostore: mark with empty key")
	}
	item := guardKey(k)
	item[AttrTTL] = num(expires)
	if _, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: &s.table, Item: item}); err != nil {
		return fmt.Errorf("dynamostore: mark %s: %w", k, err)
	}
	return nil
}

// Marked is one strongly consistent GetItem.
func (s *Store) Marked(ctx context.Context, k string, now int64) (bool, error) {
	item, err := s.getItem(ctx, guardKey(k))
	if err != nil {
		return false, fmt.Errorf("dynamostore: marked %s: %w", k, err)
	}
	if item == nil {
		return false, nil
	}
	ttl, err := numAttr(item, AttrTTL)
	if err != nil {
		return false, fmt.Errorf("dynamostore: marked %s: %w", k, err)
	}
	return ttl > now, nil
}
