package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/infra/store"
)

// A player's games are items in the player's partition ("PLAYER#<address>")
// beside the player item (sk "PLAYER"): while the player owes a decision
// in a game, a turn at sk "PLAYER#1TURN#<due>#<game id>", and a membership
// a game at sk "PLAYER#2GAME#<inverted creation time>#<game id>", their
// keys all they hold. The sort keys keep the partition in the order the
// first page of "my games" shows it, so that one Query reads the player
// item, their turns soonest due first and their games newest first
// (FirstPage); a later page of games is one Query of their range. No
// function may delete an item (template.yaml): a turn is written with
// its expiry as its ttl (store.Turn.Expires), which the table's TTL
// deletes within days of it at no cost, and FirstPage skips from then
// on (#ttl > :now); a turn gone is put again with the ttl of the
// caller's now. Memberships have no ttl.
const (
	turnPrefix   = playerSK + "#1TURN#"
	memberPrefix = playerSK + "#2GAME#"
)

var _ store.MembershipStore = (*Store)(nil)

// PutMembership writes the membership item with one PutItem.
func (s *Store) PutMembership(ctx context.Context, m store.Membership) error {
	email := normEmail(m.Email)
	if email == "" || m.Game == "" {
		return fmt.Errorf("dynamostore: put membership of %q in game %q: empty address or game", email, m.Game)
	}
	item := key(playerPrefix+email, memberPrefix+m.Cursor())
	_, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: &s.table, Item: item})
	if err := mapErr(err); err != nil {
		return fmt.Errorf("dynamostore: put membership of %s in game %s: %w", email, m.Game, err)
	}
	return nil
}

// pageQuery reads up to limit items of the player's partition whose sk
// starts with prefix, after the sk prefix+after if given, with one Query,
// leaving out those expired by now (a ttl at or before it), which count
// against limit.
func (s *Store) pageQuery(ctx context.Context, email, prefix, after string, limit int, now int64) (*dynamodb.QueryOutput, error) {
	in := &dynamodb.QueryInput{
		TableName:                 &s.table,
		KeyConditionExpression:    aws.String("#pk = :pk AND begins_with(#sk, :p)"),
		FilterExpression:          aws.String("attribute_not_exists(#ttl) OR #ttl > :now"),
		ExpressionAttributeNames:  map[string]string{"#pk": AttrPK, "#sk": AttrSK, "#ttl": AttrTTL},
		ExpressionAttributeValues: attrMap{":pk": str(playerPrefix + email), ":p": str(prefix), ":now": num(now)},
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
	out, err := s.pageQuery(ctx, email, memberPrefix, cursor, limit, time.Now().Unix()) // no membership expires
	if err != nil {
		return nil, "", fmt.Errorf("dynamostore: memberships of %s: %w", email, err)
	}
	ms := make([]store.Membership, 0, len(out.Items))
	for _, it := range out.Items {
		m, err := decodeMembership(email, it)
		if err != nil {
			return nil, "", err
		}
		ms = append(ms, m)
	}
	next := ""
	if len(out.LastEvaluatedKey) > 0 && len(ms) > 0 {
		next = ms[len(ms)-1].Cursor()
	}
	return ms, next, nil
}

// turnItem is the item of the turn t of email, its ttl expires (none
// when 0).
func turnItem(email string, t store.Turn, expires int64) attrMap {
	item := key(playerPrefix+email, turnPrefix+t.TurnKey())
	if expires > 0 {
		item[AttrTTL] = num(expires)
	}
	return item
}

// PutTurn writes the turn item, its ttl its expiry, with one PutItem.
func (s *Store) PutTurn(ctx context.Context, t store.Turn) error {
	email := normEmail(t.Email)
	if email == "" || t.Game == "" {
		return fmt.Errorf("dynamostore: put turn of %q in game %q: empty address or game", email, t.Game)
	}
	item := turnItem(email, t, t.Expires)
	_, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: &s.table, Item: item})
	if err := mapErr(err); err != nil {
		return fmt.Errorf("dynamostore: put turn of %s in game %s: %w", email, t.Game, err)
	}
	return nil
}

// DeleteTurn marks the turn item gone with one conditional UpdateItem,
// which creates no item when there is none. Its ttl is the wall clock's
// now, which the table's TTL compares with: a mark far in the past would
// never be deleted (TTL skips values more than five years old).
func (s *Store) DeleteTurn(ctx context.Context, email, game string, due int64) error {
	email = normEmail(email)
	t := store.Turn{Email: email, Game: game, Due: due}
	_, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 &s.table,
		Key:                       key(playerPrefix+email, turnPrefix+t.TurnKey()),
		UpdateExpression:          aws.String("SET #ttl = :gone"),
		ConditionExpression:       aws.String("attribute_exists(#pk)"),
		ExpressionAttributeNames:  map[string]string{"#ttl": AttrTTL, "#pk": AttrPK},
		ExpressionAttributeValues: attrMap{":gone": num(time.Now().Unix())},
	})
	if err = mapErr(err); errors.Is(err, store.ErrConflict) {
		return nil // no such turn
	}
	if err != nil {
		return fmt.Errorf("dynamostore: delete turn of %s in game %s: %w", email, game, err)
	}
	return nil
}

// MoveTurns writes the turns put and marks the turns gone with one
// BatchWriteItem, and more for whatever DynamoDB left unwritten, after a
// backoff, a bounded number of times (BatchRetry). A batch holds puts
// only, so a turn gone is marked by a put of the bare item with the ttl
// of its Expires, the caller's now (the wall clock's, as DeleteTurn's,
// when 0): where there was no such turn, it makes one already expired,
// which FirstPage skips and the table's TTL deletes.
func (s *Store) MoveTurns(ctx context.Context, gone, put []store.Turn) error {
	if len(gone)+len(put) > store.MaxTurnMoves {
		return fmt.Errorf("dynamostore: move %d turns at once, at most %d", len(gone)+len(put), store.MaxTurnMoves)
	}
	now := time.Now().Unix() // the wall clock's, as DeleteTurn's
	items := map[string]attrMap{}
	var order []string
	add := func(item attrMap) {
		k := item[AttrPK].(*types.AttributeValueMemberS).Value + "\x00" + item[AttrSK].(*types.AttributeValueMemberS).Value
		if _, ok := items[k]; !ok {
			order = append(order, k)
		}
		items[k] = item // a batch may not write one item twice: the put wins
	}
	for _, t := range gone {
		email := normEmail(t.Email)
		if email == "" || t.Game == "" {
			continue // no such turn, as DeleteTurn finds none
		}
		gone := t.Expires
		if gone <= 0 {
			gone = now
		}
		add(turnItem(email, t, gone))
	}
	for _, t := range put {
		email := normEmail(t.Email)
		if email == "" || t.Game == "" {
			return fmt.Errorf("dynamostore: put turn of %q in game %q: empty address or game", email, t.Game)
		}
		add(turnItem(email, t, t.Expires))
	}
	if len(order) == 0 {
		return nil
	}
	puts := make([]types.WriteRequest, 0, len(order))
	for _, k := range order {
		puts = append(puts, types.WriteRequest{PutRequest: &types.PutRequest{Item: items[k]}})
	}
	n := len(puts)
	err := s.writeBatch(ctx, puts)
	if err != nil {
		return fmt.Errorf("dynamostore: move %d turns: %w", n, err)
	}
	return nil
}

// ForgetPlayerGames deletes ids from the player item's game set with one
// UpdateItem (DELETE from a string set; an emptied set is removed).
func (s *Store) ForgetPlayerGames(ctx context.Context, email string, ids []string) error {
	email = normEmail(email)
	if email == "" || len(ids) == 0 {
		return nil
	}
	_, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 &s.table,
		Key:                       playerKey(email),
		UpdateExpression:          aws.String("DELETE #g :ids"),
		ConditionExpression:       aws.String("attribute_exists(#g)"),
		ExpressionAttributeNames:  map[string]string{"#g": AttrGames},
		ExpressionAttributeValues: attrMap{":ids": stringSet(ids)},
	})
	if err = mapErr(err); err != nil && !errors.Is(err, store.ErrConflict) {
		return fmt.Errorf("dynamostore: forget games of player %s: %w", email, err)
	}
	return nil
}

// decodeMembership reads a membership item of the player's.
func decodeMembership(email string, it attrMap) (store.Membership, error) {
	a := attrs{item: it}
	rest := strings.TrimPrefix(a.optString(AttrSK), memberPrefix)
	inv, game, _ := strings.Cut(rest, "#")
	m := store.Membership{Email: email, Game: game}
	n, err := strconv.ParseInt(inv, 10, 64)
	if err != nil || game == "" {
		return m, fmt.Errorf("dynamostore: memberships of %s: key %q", email, rest)
	}
	m.Created = maxListTime - n
	if a.err != nil {
		return m, fmt.Errorf("dynamostore: memberships of %s: %w", email, a.err)
	}
	return m, nil
}

// decodeTurn reads a turn item of the player's.
func decodeTurn(email string, it attrMap) (store.Turn, error) {
	a := attrs{item: it}
	rest := strings.TrimPrefix(a.optString(AttrSK), turnPrefix)
	due, game, _ := strings.Cut(rest, "#")
	t := store.Turn{Email: email, Game: game, Expires: a.optNum(AttrTTL)}
	var err error
	if t.Due, err = strconv.ParseInt(due, 10, 64); err != nil || game == "" {
		return t, fmt.Errorf("dynamostore: turns of %s: key %q", email, rest)
	}
	if a.err != nil {
		return t, fmt.Errorf("dynamostore: turns of %s: %w", email, a.err)
	}
	return t, nil
}

// FirstPage reads the player item, then the turns not expired by now,
// then the memberships with one consistent Query of the partition's
// "PLAYER" range, of at most store.FirstPageWindow items (expired turns,
// until the TTL deletes them, are read and left out; 301 small items are
// about 10 read units): a window that holds all three unless the player
// owes hundreds of decisions, or has that many turns that expired in the
// days the TTL takes: then it ends among the turns, and the memberships
// are Unread.
func (s *Store) FirstPage(ctx context.Context, email string, limit int, now int64) (store.FirstPage, error) {
	email = normEmail(email)
	page := store.FirstPage{Player: store.Player{Email: email}}
	if email == "" || limit < 1 {
		return page, nil
	}
	out, err := s.pageQuery(ctx, email, playerSK, "", store.FirstPageWindow(limit), now)
	if err != nil {
		return page, fmt.Errorf("dynamostore: first page of %s: %w", email, err)
	}
	inMemberships := false
	for _, it := range out.Items {
		a := attrs{item: it}
		switch sk := a.optString(AttrSK); {
		case sk == playerSK:
			page.Player, page.Found = decodePlayer(email, &a), true
			if a.err != nil {
				return page, fmt.Errorf("dynamostore: first page of %s: %w", email, a.err)
			}
		case strings.HasPrefix(sk, turnPrefix):
			t, err := decodeTurn(email, it)
			if err != nil {
				return page, err
			}
			if len(page.Turns) < limit {
				page.Turns = append(page.Turns, t)
			}
		case strings.HasPrefix(sk, memberPrefix):
			inMemberships = true
			m, err := decodeMembership(email, it)
			if err != nil {
				return page, err
			}
			if len(page.Memberships) == limit {
				page.Next = page.Memberships[limit-1].Cursor()
				return page, nil
			}
			page.Memberships = append(page.Memberships, m)
		}
	}
	switch {
	case len(out.LastEvaluatedKey) == 0: // the whole range read
	case inMemberships:
		page.Next = page.Memberships[len(page.Memberships)-1].Cursor()
	default: // the window held only turns
		page.Unread = true
	}
	return page, nil
}

// maxListTime is store's bound on times in listing keys.
const maxListTime = 9_999_999_999
