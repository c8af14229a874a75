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

// Personal links (store.LinkStore), in the same table:
//
//	access item: pk "ACCESS#<id>", sk "ACCESS", ver (N), body (B)
//	player item: lid (S) the link id, lgen (N) the link generation
//
// Writes of an access item are one conditional PutItem on ver, as a
// game's; the player's two attributes are set by one UpdateItem each,
// without a read.
const (
	AttrLinkID  = "lid"
	AttrLinkGen = "lgen"

	accessPrefix = "ACCESS#"
	accessSK     = "ACCESS"
)

var _ store.LinkStore = (*Store)(nil)

func accessKey(id string) attrMap { return key(accessPrefix+id, accessSK) }

// GetAccess reads an access item with one strongly consistent GetItem.
func (s *Store) GetAccess(ctx context.Context, id string) (store.Access, error) {
	if id == "" {
		return store.Access{}, fmt.Errorf("dynamostore: get access with empty id: %w", store.ErrNotFound)
	}
	return getDecoded(ctx, s, accessKey(id), "get access", id, func(id string, a *attrs) store.Access {
		return store.Access{ID: id, Version: a.num(AttrVer), Body: a.bin(AttrBody)}
	})
}

// PutAccess writes a as version prev+1 with one conditional PutItem.
func (s *Store) PutAccess(ctx context.Context, a store.Access, prev int64) (int64, error) {
	if a.ID == "" {
		return 0, errors.New("dynamostore: put access with empty id")
	}
	if prev < 0 {
		return 0, fmt.Errorf("dynamostore: put access %s: negative previous version %d", a.ID, prev)
	}
	ver := prev + 1
	item := accessKey(a.ID)
	item[AttrVer] = num(ver)
	item[AttrBody] = &types.AttributeValueMemberB{Value: nonNil(a.Body)}
	if err := s.putVersioned(ctx, item, prev); err != nil {
		return 0, fmt.Errorf("dynamostore: put access %s version %d: %w", a.ID, ver, mapErr(err))
	}
	return ver, nil
}

// SetPlayerLinkID is one UpdateItem: SET lid = if_not_exists(lid, :id),
// returning the stored id.
func (s *Store) SetPlayerLinkID(ctx context.Context, email, id string, at int64) (string, error) {
	email = normEmail(email)
	if email == "" || id == "" {
		return "", errors.New("dynamostore: set link id with empty address or id")
	}
	out, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       playerKey(email),
		UpdateExpression:          aws.String("SET #lid = if_not_exists(#lid, :id), #upd = :upd"),
		ExpressionAttributeNames:  map[string]string{"#lid": AttrLinkID, "#upd": AttrUpd},
		ExpressionAttributeValues: attrMap{":id": str(id), ":upd": num(at)},
		ReturnValues:              types.ReturnValueUpdatedNew,
	})
	if err != nil {
		return "", fmt.Errorf("dynamostore: set link id of %s: %w", email, mapErr(err))
	}
	got, err := optString(out.Attributes, AttrLinkID)
	if err != nil || got == "" {
		return "", fmt.Errorf("dynamostore: set link id of %s: no id returned (%v)", email, err)
	}
	return got, nil
}

// BumpLinkGen is one UpdateItem: ADD lgen 1, returning the new value.
func (s *Store) BumpLinkGen(ctx context.Context, email string, at int64) (int64, error) {
	email = normEmail(email)
	if email == "" {
		return 0, errors.New("dynamostore: bump link generation with empty address")
	}
	out, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       playerKey(email),
		UpdateExpression:          aws.String("SET #upd = :upd ADD #gen :one"),
		ExpressionAttributeNames:  map[string]string{"#gen": AttrLinkGen, "#upd": AttrUpd},
		ExpressionAttributeValues: attrMap{":one": num(1), ":upd": num(at)},
		ReturnValues:              types.ReturnValueUpdatedNew,
	})
	if err != nil {
		return 0, fmt.Errorf("dynamostore: bump link generation of %s: %w", email, mapErr(err))
	}
	gen, err := numAttr(out.Attributes, AttrLinkGen)
	if err != nil {
		return 0, fmt.Errorf("dynamostore: bump link generation of %s: %w", email, err)
	}
	return gen, nil
}
