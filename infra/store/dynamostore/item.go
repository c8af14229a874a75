package dynamostore

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pbmgames/pbm/infra/awsapi/ddb"

	"github.com/pbmgames/pbm/infra/store"
)

// The requests every kind of item (game, chunk, player, guard) makes the
// same way, and the reading of an item's attributes.

// attrMap is an item: its attributes by name.
type attrMap = ddb.Item

func key(pk, sk string) attrMap {
	return attrMap{
		AttrPK: ddb.S(pk),
		AttrSK: ddb.S(sk),
	}
}

func accessKey(id string) attrMap { return key(accessPrefix+id, accessSK) }

func guardKey(k string) attrMap { return key(guardPrefix+k, guardSK) }

// getItem reads the item at k with one strongly consistent GetItem; nil
// if there is none.
func (s *Store) getItem(ctx context.Context, k attrMap) (attrMap, error) {
	out, err := s.client.GetItem(ctx, &ddb.GetItemInput{
		TableName:      s.table,
		Key:            k,
		ConsistentRead: true,
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
	item[AttrBody] = ddb.B(nonNil(body))
	in := &ddb.PutItemInput{TableName: s.table, Item: item}
	if prev == 0 {
		in.ConditionExpression = "attribute_not_exists(#pk)"
		in.ExpressionAttributeNames = map[string]string{"#pk": AttrPK}
	} else {
		in.ConditionExpression = "#ver = :prev"
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
	out, err := s.client.UpdateItem(ctx, &ddb.UpdateItemInput{
		TableName:                 s.table,
		Key:                       k,
		UpdateExpression:          expr,
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
		ReturnValues:              ddb.ReturnValueUpdatedNew,
	})
	if err != nil {
		return nil, mapErr(err)
	}
	return out.Attributes, nil
}

// failedItem is the item at k whose condition ccf failed on: the one the
// failure carries where the server returns it (AWS does, dynalite does
// not), otherwise read back.
func (s *Store) failedItem(ctx context.Context, ccf *ddb.ConditionalCheckFailedException, k attrMap) (attrMap, error) {
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
	in := &ddb.QueryInput{
		TableName:                 s.table,
		KeyConditionExpression:    q.cond,
		ExpressionAttributeNames:  q.names,
		ExpressionAttributeValues: q.values,
	}
	if q.index == "" {
		in.ConsistentRead = true
	} else {
		in.IndexName = q.index
	}
	err := s.client.QueryPages(ctx, in, func(out *ddb.QueryOutput) error {
		for _, it := range out.Items {
			if err := each(it); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("dynamostore: %s: %w", what, err)
	}
	return nil
}

// queryIDs lists the items q finds by their partition keys, which all
// start with prefix, without it: the ids of the games or the addresses
// of the players a sparse index holds.
func (s *Store) queryIDs(ctx context.Context, q keyQuery, prefix, what string) ([]string, error) {
	var ids []string
	err := s.query(ctx, q, what, func(it attrMap) error {
		pk, ok := it[AttrPK].(ddb.S)
		if !ok || !strings.HasPrefix(string(pk), prefix) {
			return fmt.Errorf("unexpected item %v", it[AttrPK])
		}
		ids = append(ids, strings.TrimPrefix(string(pk), prefix))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

func num(v int64) ddb.Value {
	return ddb.Int(v)
}

func str(v string) ddb.Value { return ddb.S(v) }

func boolean(v bool) ddb.Value { return ddb.BOOL(v) }

func numAttr(it attrMap, name string) (int64, error) {
	v, ok := it[name].(ddb.N)
	if !ok {
		return 0, fmt.Errorf("attribute %s missing or not a number", name)
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
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
	v, ok := it[name].(ddb.B)
	if !ok {
		return nil, fmt.Errorf("attribute %s missing or not binary", name)
	}
	return v, nil
}

func optString(it attrMap, name string) (string, error) {
	switch v := it[name].(type) {
	case nil:
		return "", nil
	case ddb.S:
		return string(v), nil
	default:
		return "", fmt.Errorf("attribute %s is not a string", name)
	}
}

// optSortedSet reads a string set that may be absent (nil), sorted.
func optSortedSet(it attrMap, name string) ([]string, error) {
	switch v := it[name].(type) {
	case nil:
		return nil, nil
	case ddb.SS:
		set := slices.Clone([]string(v))
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
	case ddb.BOOL:
		return bool(v), nil
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
