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

// Table talk (store.TalkStore), in the game's partition beside its item:
//
//	message: pk "GAME#<id>", sk "TALK#<key>"     at (N), from (N), to (N),
//	                                             text (S), hid (BOOL) once hidden
//	mark:    pk "GAME#<id>", sk "TALK!SEEN#<seat>" seen (S)
//	choice:  pk "GAME#<id>", sk "TALK!MAIL#<seat>" on (BOOL): mail each message
//
// A message is written once with a conditional PutItem and never
// rewrites the game item; hiding rewrites it with one conditional PutItem
// (PutItem being the one write every function may make on a game's
// partition, template.yaml); a page of
// messages is one Query on a range of sort keys ("TALK#" up to "TALK#~",
// '~' sorting after every key the service makes), which never reaches
// the game item ("GAME"), its chunks ("LOG#") or the marks ("TALK!", '!'
// sorting before '#'). The marks are small items of their own, moved
// forward by one conditional PutItem.
const (
	talkPrefix = "TALK#"
	talkEnd    = "TALK#~"
	talkSeenSK = "TALK!SEEN#"
	talkMailSK = "TALK!MAIL#"

	AttrTalkAt     = "at"
	AttrTalkFrom   = "from"
	AttrTalkTo     = "to"
	AttrTalkText   = "text"
	AttrTalkHidden = "hid"
	AttrTalkSeen   = "seen"
	AttrTalkMail   = "on"
)

var _ store.TalkStore = (*Store)(nil)

// PostTalk writes the message with one PutItem on condition that its key
// is free.
func (s *Store) PostTalk(ctx context.Context, m store.TalkMessage) error {
	if m.Game == "" || m.Key == "" || strings.Contains(m.Key, "~") {
		return fmt.Errorf("dynamostore: post talk with game %q and key %q", m.Game, m.Key)
	}
	_, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                &s.table,
		Item:                     talkItem(m),
		ConditionExpression:      aws.String("attribute_not_exists(#pk)"),
		ExpressionAttributeNames: map[string]string{"#pk": AttrPK},
	})
	if err != nil {
		return fmt.Errorf("dynamostore: post talk to %s, message %s: %w", m.Game, m.Key, mapErr(err))
	}
	return nil
}

// talkItem is the item of m.
func talkItem(m store.TalkMessage) attrMap {
	item := key(gamePK(m.Game), talkPrefix+m.Key)
	item[AttrTalkAt], item[AttrTalkFrom], item[AttrTalkTo] = num(m.At), num(int64(m.From)), num(int64(m.To))
	item[AttrTalkText] = str(m.Text)
	if m.Hidden {
		item[AttrTalkHidden] = boolean(true)
	}
	return item
}

// TalkBefore is one Query, newest first.
func (s *Store) TalkBefore(ctx context.Context, game, before string, limit int) ([]store.TalkMessage, error) {
	hi := talkEnd
	if before != "" {
		hi = talkPrefix + before
	}
	return s.talkQuery(ctx, game, talkPrefix, hi, before, false, limit)
}

// TalkAfter is one Query, oldest first.
func (s *Store) TalkAfter(ctx context.Context, game, after string, limit int) ([]store.TalkMessage, error) {
	return s.talkQuery(ctx, game, talkPrefix+after, talkEnd, after, true, limit)
}

// talkQuery reads up to limit messages with sort keys from lo to hi
// (both included, as BETWEEN does) in the order asked, leaving out the
// one of key not (the bound the caller wants excluded): one Query of
// limit+1 items, consistent.
func (s *Store) talkQuery(ctx context.Context, game, lo, hi, not string, forward bool, limit int) ([]store.TalkMessage, error) {
	if game == "" || limit <= 0 {
		return nil, nil
	}
	out, err := s.client.Query(ctx, &dynamodb.QueryInput{
		TableName:                 &s.table,
		KeyConditionExpression:    aws.String("#pk = :pk AND #sk BETWEEN :lo AND :hi"),
		ExpressionAttributeNames:  map[string]string{"#pk": AttrPK, "#sk": AttrSK},
		ExpressionAttributeValues: attrMap{":pk": str(gamePK(game)), ":lo": str(lo), ":hi": str(hi)},
		ConsistentRead:            aws.Bool(true),
		ScanIndexForward:          aws.Bool(forward),
		Limit:                     aws.Int32(int32(limit + 1)),
	})
	if err != nil {
		return nil, fmt.Errorf("dynamostore: talk of %s: %w", game, err)
	}
	var msgs []store.TalkMessage
	for _, it := range out.Items {
		sk, ok := it[AttrSK].(*types.AttributeValueMemberS)
		if !ok {
			return nil, fmt.Errorf("dynamostore: talk of %s: item without sort key", game)
		}
		k := strings.TrimPrefix(sk.Value, talkPrefix)
		if k == not || len(msgs) == limit {
			continue
		}
		a := attrs{item: it}
		m := store.TalkMessage{Game: game, Key: k, At: a.num(AttrTalkAt), From: int(a.num(AttrTalkFrom)), To: int(a.num(AttrTalkTo)),
			Text: a.optString(AttrTalkText), Hidden: a.optBool(AttrTalkHidden)}
		if a.err != nil {
			return nil, fmt.Errorf("dynamostore: talk of %s, message %s: %w", game, k, a.err)
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// SetTalkHidden is one PutItem on condition that the message exists.
func (s *Store) SetTalkHidden(ctx context.Context, m store.TalkMessage) error {
	if m.Game == "" || m.Key == "" {
		return fmt.Errorf("dynamostore: hide talk with empty game or key: %w", store.ErrNotFound)
	}
	_, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                &s.table,
		Item:                     talkItem(m),
		ConditionExpression:      aws.String("attribute_exists(#pk)"),
		ExpressionAttributeNames: map[string]string{"#pk": AttrPK},
	})
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return fmt.Errorf("dynamostore: hide talk of %s, message %s: %w", m.Game, m.Key, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("dynamostore: hide talk of %s, message %s: %w", m.Game, m.Key, err)
	}
	return nil
}

func talkSeenKey(game string, seat int) attrMap {
	return key(gamePK(game), talkSeenSK+strconv.Itoa(seat))
}

// TalkSeen is one strongly consistent GetItem.
func (s *Store) TalkSeen(ctx context.Context, game string, seat int) (string, error) {
	if game == "" {
		return "", nil
	}
	it, err := s.getItem(ctx, talkSeenKey(game, seat))
	if err != nil {
		return "", fmt.Errorf("dynamostore: talk seen of %s seat %d: %w", game, seat, err)
	}
	if it == nil {
		return "", nil
	}
	k, err := optString(it, AttrTalkSeen)
	if err != nil {
		return "", fmt.Errorf("dynamostore: talk seen of %s seat %d: %w", game, seat, err)
	}
	return k, nil
}

// SetTalkSeen is one PutItem on condition that the mark is behind key;
// a failed condition means it is not, which is no error.
func (s *Store) SetTalkSeen(ctx context.Context, game string, seat int, k string) error {
	if game == "" || seat < 0 {
		return fmt.Errorf("dynamostore: set talk seen of game %q seat %d", game, seat)
	}
	item := talkSeenKey(game, seat)
	item[AttrTalkSeen] = str(k)
	_, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                 &s.table,
		Item:                      item,
		ConditionExpression:       aws.String("attribute_not_exists(#seen) OR #seen < :k"),
		ExpressionAttributeNames:  map[string]string{"#seen": AttrTalkSeen},
		ExpressionAttributeValues: attrMap{":k": str(k)},
	})
	var ccf *types.ConditionalCheckFailedException
	if err != nil && !errors.As(err, &ccf) {
		return fmt.Errorf("dynamostore: set talk seen of %s seat %d: %w", game, seat, err)
	}
	return nil
}

func talkMailKey(game string, seat int) attrMap {
	return key(gamePK(game), talkMailSK+strconv.Itoa(seat))
}

// TalkMail is one strongly consistent GetItem.
func (s *Store) TalkMail(ctx context.Context, game string, seat int) (bool, error) {
	if game == "" {
		return false, nil
	}
	it, err := s.getItem(ctx, talkMailKey(game, seat))
	if err != nil || it == nil {
		return false, wrapTalkMail(err, game, seat)
	}
	on, err := optBool(it, AttrTalkMail)
	return on, wrapTalkMail(err, game, seat)
}

// SetTalkMail is one PutItem: the choice is the seat's alone, the last
// one written stands.
func (s *Store) SetTalkMail(ctx context.Context, game string, seat int, on bool) error {
	if game == "" || seat < 0 {
		return fmt.Errorf("dynamostore: set talk mail of game %q seat %d", game, seat)
	}
	item := talkMailKey(game, seat)
	item[AttrTalkMail] = boolean(on)
	_, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: &s.table, Item: item})
	return wrapTalkMail(err, game, seat)
}

func wrapTalkMail(err error, game string, seat int) error {
	if err != nil {
		return fmt.Errorf("dynamostore: talk mail of %s seat %d: %w", game, seat, err)
	}
	return nil
}
