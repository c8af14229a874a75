package dynamostore

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/infra/store"
)

// The requests every kind of item (game, chunk, player, guard) makes the
// same way, and the reading of an item's attributes.

// attrMap is an item: its attributes by name.
type attrMap = map[string]types.AttributeValue

func key(pk, sk string) attrMap {
	return attrMap{
		AttrPK: str(pk),
		AttrSK: str(sk),
	}
}

func accessKey(id string) attrMap { return key(accessPrefix+id, accessSK) }

func guardKey(k string) attrMap { return key(guardPrefix+k, guardSK) }

// getItem reads the item at k with one strongly consistent GetItem; nil
// if there is none.
func (s *Store) getItem(ctx context.Context, k attrMap) (attrMap, error) {
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      &s.table,
		Key:            k,
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return nil, err
	}
	return out.Item, nil
}

// getDecoded reads the item at k, of the game or player id, and decodes
// it; an absent item is store.ErrNotFound, and the first attribute
// decode could not read is the error. op names the read in errors
// ("get game").
func getDecoded[T any](ctx context.Context, s *Store, k attrMap, op, id string, decode func(string, *attrs) T) (T, error) {
	var zero T
	what := op + " " + id
	it, err := s.getItem(ctx, k)
	if err != nil {
		return zero, fmt.Errorf("dynamostore: %s: %w", what, err)
	}
	if it == nil {
		return zero, fmt.Errorf("dynamostore: %s: %w", what, store.ErrNotFound)
	}
	a := attrs{item: it}
	v := decode(id, &a)
	if a.err != nil {
		return zero, fmt.Errorf("dynamostore: %s: %w", what, a.err)
	}
	return v, nil
}

// putVersioned writes item with body as version prev+1, with one PutItem
// conditioned on the version (ver) of the item it replaces: prev, or no
// item at all for prev 0; what names the item in errors.
func (s *Store) putVersioned(ctx context.Context, item attrMap, body []byte, prev int64, what string) (int64, error) {
	if prev < 0 {
		return 0, fmt.Errorf("dynamostore: put %s: negative previous version %d", what, prev)
	}
	ver := prev + 1
	item[AttrVer] = num(ver)
	item[AttrBody] = bin(body)
	in := &dynamodb.PutItemInput{TableName: &s.table, Item: item}
	if prev == 0 {
		in.ConditionExpression = aws.String("attribute_not_exists(#pk)")
		in.ExpressionAttributeNames = map[string]string{"#pk": AttrPK}
	} else {
		in.ConditionExpression = aws.String("#ver = :prev")
		in.ExpressionAttributeNames = map[string]string{"#ver": AttrVer}
		in.ExpressionAttributeValues = attrMap{":prev": num(prev)}
	}
	if _, err := s.client.PutItem(ctx, in); err != nil {
		return 0, fmt.Errorf("dynamostore: put %s version %d: %w", what, ver, mapErr(err))
	}
	return ver, nil
}

// updateNew is one UpdateItem of the item at k that returns the new
// values of the attributes it wrote.
func (s *Store) updateNew(ctx context.Context, k attrMap, expr string, names map[string]string, values attrMap) (attrMap, error) {
	out, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 &s.table,
		Key:                       k,
		UpdateExpression:          &expr,
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
		ReturnValues:              types.ReturnValueUpdatedNew,
	})
	if err != nil {
		return nil, mapErr(err)
	}
	return out.Attributes, nil
}

// failedItem is the item at k whose condition ccf failed on: the one the
// failure carries where the server returns it (AWS does, dynalite does
// not), otherwise read back.
func (s *Store) failedItem(ctx context.Context, ccf *types.ConditionalCheckFailedException, k attrMap) (attrMap, error) {
	if ccf.Item != nil {
		return ccf.Item, nil
	}
	it, err := s.getItem(ctx, k)
	if err != nil {
		return nil, fmt.Errorf("read back: %w", err)
	}
	return it, nil
}

// keyQuery is a Query on a key of the table or of one of its indexes.
type keyQuery struct {
	// index is the index queried; "" for the table, read consistently
	// (an index cannot be).
	index string
	// cond is the key condition, with its attribute names and values.
	cond   string
	names  map[string]string
	values attrMap
}

// query runs q, paginated, and calls each on every item found. what
// names the listing in errors ("chunks of <id>").
func (s *Store) query(ctx context.Context, q keyQuery, what string, each func(attrMap) error) error {
	in := &dynamodb.QueryInput{
		TableName:                 &s.table,
		KeyConditionExpression:    &q.cond,
		ExpressionAttributeNames:  q.names,
		ExpressionAttributeValues: q.values,
	}
	if q.index == "" {
		in.ConsistentRead = aws.Bool(true)
	} else {
		in.IndexName = &q.index
	}
	pages := dynamodb.NewQueryPaginator(s.client.Query, in)
	for pages.HasMorePages() {
		out, err := pages.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("dynamostore: %s: %w", what, err)
		}
		for _, it := range out.Items {
			if err := each(it); err != nil {
				return fmt.Errorf("dynamostore: %s: %w", what, err)
			}
		}
	}
	return nil
}

// queryIDs lists the items q finds by their partition keys, which all
// start with prefix, without it: the ids of the games or the addresses
// of the players a sparse index holds.
func (s *Store) queryIDs(ctx context.Context, q keyQuery, prefix, what string) ([]string, error) {
	var ids []string
	err := s.query(ctx, q, what, func(it attrMap) error {
		id, ok := strings.CutPrefix(sAttr(it, AttrPK), prefix)
		if !ok {
			return fmt.Errorf("unexpected item %q", sAttr(it, AttrPK))
		}
		ids = append(ids, id)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

func num(v int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
}

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func boolean(v bool) types.AttributeValue { return &types.AttributeValueMemberBOOL{Value: v} }

// bin is a binary value; DynamoDB takes an empty one, but not a missing one.
func bin(v []byte) types.AttributeValue {
	if v == nil {
		v = []byte{}
	}
	return &types.AttributeValueMemberB{Value: v}
}

func stringSet(v []string) types.AttributeValue { return &types.AttributeValueMemberSS{Value: v} }

// sAttr is the string attribute name of it, or "" if it is absent or of
// another type: for keys, whose callers check what they hold.
func sAttr(it attrMap, name string) string {
	if v, ok := it[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

func numAttr(it attrMap, name string) (int64, error) {
	v, ok := it[name].(*types.AttributeValueMemberN)
	if !ok {
		return 0, fmt.Errorf("attribute %s missing or not a number", name)
	}
	n, err := strconv.ParseInt(v.Value, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("attribute %s: %w", name, err)
	}
	return n, nil
}

// optNumAttr is numAttr of an attribute that may be absent (zero).
func optNumAttr(it attrMap, name string) (int64, error) {
	if _, ok := it[name]; !ok {
		return 0, nil
	}
	return numAttr(it, name)
}

func binAttr(it attrMap, name string) ([]byte, error) {
	v, ok := it[name].(*types.AttributeValueMemberB)
	if !ok {
		return nil, fmt.Errorf("attribute %s missing or not binary", name)
	}
	return v.Value, nil
}

func optString(it attrMap, name string) (string, error) {
	switch v := it[name].(type) {
	case nil:
		return "", nil
	case *types.AttributeValueMemberS:
		return v.Value, nil
	default:
		return "", fmt.Errorf("attribute %s is not a string", name)
	}
}

// optSortedSet reads a string set that may be absent (nil), sorted.
func optSortedSet(it attrMap, name string) ([]string, error) {
	switch v := it[name].(type) {
	case nil:
		return nil, nil
	case *types.AttributeValueMemberSS:
		set := slices.Clone(v.Value)
		slices.Sort(set)
		return set, nil
	default:
		return nil, fmt.Errorf("attribute %s is not a string set", name)
	}
}

func optBool(it attrMap, name string) (bool, error) {
	switch v := it[name].(type) {
	case nil:
		return false, nil
	case *types.AttributeValueMemberBOOL:
		return v.Value, nil
	default:
		return false, fmt.Errorf("attribute %s is not a boolean", name)
	}
}

// attrs reads the attributes of one item, keeping the first error, so
// that a decoder reads each attribute in one expression and checks once.
type attrs struct {
	item attrMap
	err  error
}

// read reads attribute name of a.item with r, unless a read failed.
func read[T any](a *attrs, r func(attrMap, string) (T, error), name string) T {
	var v T
	if a.err == nil {
		v, a.err = r(a.item, name)
	}
	return v
}

func (a *attrs) num(name string) int64             { return read(a, numAttr, name) }
func (a *attrs) optNum(name string) int64          { return read(a, optNumAttr, name) }
func (a *attrs) bin(name string) []byte            { return read(a, binAttr, name) }
func (a *attrs) optString(name string) string      { return read(a, optString, name) }
func (a *attrs) optSortedSet(name string) []string { return read(a, optSortedSet, name) }
func (a *attrs) optBool(name string) bool          { return read(a, optBool, name) }
