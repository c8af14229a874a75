package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/infra/store"
)

// Attribute names of a player item.
const (
	AttrLang       = "lang"
	AttrMail       = "mail"
	AttrTZ         = "tz"
	AttrUnsub      = "unsub"
	AttrSupp       = "supp"
	AttrSuppReason = "supp_reason"
	AttrSuppAt     = "supp_at"
	AttrGames      = "games"

	playerPrefix = "PLAYER#"
	playerSK     = "PLAYER"
)

var _ store.PlayerStore = (*Store)(nil)

// normEmail is the key form of an address: lower-case.
func normEmail(email string) string { return strings.ToLower(email) }

func playerKey(email string) attrMap {
	return key(playerPrefix+email, playerSK)
}

// GetPlayer reads a player with one strongly consistent GetItem.
func (s *Store) GetPlayer(ctx context.Context, email string) (store.Player, error) {
	email = normEmail(email)
	if email == "" {
		return store.Player{}, fmt.Errorf("dynamostore: get player with empty address: %w", store.ErrNotFound)
	}
	return getDecoded(ctx, s, playerKey(email), "get player", email, decodePlayer)
}

// decodePlayer reads a player item; attributes a player has never had
// written are absent and read as zero.
func decodePlayer(email string, a *attrs) store.Player {
	return store.Player{
		Email:            email,
		Lang:             a.optString(AttrLang),
		Mail:             a.optString(AttrMail),
		TimeZone:         a.optString(AttrTZ),
		SuppressedReason: a.optString(AttrSuppReason),
		Unsubscribed:     a.optBool(AttrUnsub),
		Suppressed:       a.optBool(AttrSupp),
		SuppressedAt:     a.optNum(AttrSuppAt),
		UpdatedAt:        a.optNum(AttrUpd),
		Games:            a.optSortedSet(AttrGames),
		LinkID:           a.optString(AttrLinkID),
		LinkGen:          a.optNum(AttrLinkGen),
	}
}

// update builds one UpdateItem on a player item: SET for the attributes in
// set, REMOVE for those in remove, ADD of add (a string set) to games.
// UpdateItem creates the item when it is missing.
type update struct {
	set    attrMap
	remove []string
	add    []string
}

// setString sets the string attribute name to v, or removes it if v is
// "": a player item holds no empty strings.
func (u *update) setString(name, v string) {
	if v == "" {
		u.remove = append(u.remove, name)
	} else {
		u.set[name] = str(v)
	}
}

func (s *Store) updatePlayer(ctx context.Context, email string, u update) error {
	names := map[string]string{}
	values := attrMap{}
	var sets, removes []string
	// Sorted so that the expression is the same from call to call.
	for _, name := range slices.Sorted(maps.Keys(u.set)) {
		names["#"+name] = name
		values[":"+name] = u.set[name]
		sets = append(sets, "#"+name+" = :"+name)
	}
	for _, name := range u.remove {
		names["#"+name] = name
		removes = append(removes, "#"+name)
	}
	var expr []string
	if len(sets) > 0 {
		expr = append(expr, "SET "+strings.Join(sets, ", "))
	}
	if len(removes) > 0 {
		expr = append(expr, "REMOVE "+strings.Join(removes, ", "))
	}
	if len(u.add) > 0 {
		names["#"+AttrGames] = AttrGames
		values[":add"] = stringSet(u.add)
		expr = append(expr, "ADD #"+AttrGames+" :add")
	}
	_, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 &s.table,
		Key:                       playerKey(email),
		UpdateExpression:          aws.String(strings.Join(expr, " ")),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
	})
	return mapErr(err)
}

// AddPlayerGame adds gameID to the player's set of games with one
// UpdateItem (ADD to a string set), so concurrent adds never lose one and
// no read is needed.
func (s *Store) AddPlayerGame(ctx context.Context, email, gameID string, at int64) error {
	email = normEmail(email)
	if email == "" {
		return errors.New("dynamostore: add player game with empty address")
	}
	if gameID == "" {
		return fmt.Errorf("dynamostore: add game to player %s: empty game id", email)
	}
	err := s.updatePlayer(ctx, email, update{
		set: attrMap{AttrUpd: num(at)},
		add: []string{gameID},
	})
	if err != nil {
		return fmt.Errorf("dynamostore: add game %s to player %s: %w", gameID, email, err)
	}
	return nil
}

// SetPlayerPrefs sets the preferences with one UpdateItem. An empty
// language, mail or time zone preference removes the attribute.
func (s *Store) SetPlayerPrefs(ctx context.Context, email, lang, mail, tz string, unsubscribed bool, at int64) error {
	email = normEmail(email)
	if email == "" {
		return errors.New("dynamostore: set player prefs with empty address")
	}
	u := update{set: attrMap{AttrUnsub: boolean(unsubscribed), AttrUpd: num(at)}}
	u.setString(AttrLang, lang)
	u.setString(AttrMail, mail)
	u.setString(AttrTZ, tz)
	if err := s.updatePlayer(ctx, email, u); err != nil {
		return fmt.Errorf("dynamostore: set prefs of player %s: %w", email, err)
	}
	return nil
}

// Suppress marks the address with one UpdateItem, leaving preferences and
// games as they are.
func (s *Store) Suppress(ctx context.Context, email, reason string, at int64) error {
	email = normEmail(email)
	if email == "" {
		return errors.New("dynamostore: suppress empty address")
	}
	u := update{set: attrMap{AttrSupp: boolean(true), AttrSuppAt: num(at), AttrUpd: num(at)}}
	u.setString(AttrSuppReason, reason)
	if err := s.updatePlayer(ctx, email, u); err != nil {
		return fmt.Errorf("dynamostore: suppress player %s: %w", email, err)
	}
	return nil
}

// The daily digest is kept in the player item (AttrDigest, and
// AttrDigestPK and AttrDigestAt for the digest index).

// queuedItem is one queued item as a map in the list AttrDigest: g (S),
// k (S), s (N), at (N).
type queuedItem struct {
	Game string `dynamodbav:"g"`
	Kind string `dynamodbav:"k"`
	Seat int    `dynamodbav:"s"`
	At   int64  `dynamodbav:"at"`
}

// QueueDigest appends the item with one UpdateItem (list_append), and sets
// dpk and dig, which put the player in the digest index, unless set.
func (s *Store) QueueDigest(ctx context.Context, email string, item store.DigestItem, at int64) error {
	email = normEmail(email)
	if email == "" {
		return errors.New("dynamostore: queue digest for empty address")
	}
	queued, err := attributevalue.Marshal([]queuedItem{{Game: item.Game, Kind: item.Kind, Seat: item.Seat, At: item.At}})
	if err != nil {
		return fmt.Errorf("dynamostore: queue digest for %s: %w", email, err)
	}
	_, err = s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: &s.table,
		Key:       playerKey(email),
		UpdateExpression: aws.String("SET #dq = list_append(if_not_exists(#dq, :empty), :item), " +
			"#dig = if_not_exists(#dig, :at), #dpk = :d"),
		ExpressionAttributeNames: map[string]string{"#dq": AttrDigest, "#dig": AttrDigestAt, "#dpk": AttrDigestPK},
		ExpressionAttributeValues: attrMap{
			":empty": &types.AttributeValueMemberL{Value: []types.AttributeValue{}},
			":item":  queued,
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
		TableName:                &s.table,
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
	var queued []queuedItem
	if err := attributevalue.Unmarshal(l, &queued); err != nil {
		return nil, fmt.Errorf("dynamostore: take digest of %s: %w", email, err)
	}
	items := make([]store.DigestItem, len(queued))
	for i, q := range queued {
		items[i] = store.DigestItem{Game: q.Game, Kind: q.Kind, Seat: q.Seat, At: q.At}
	}
	return items, nil
}

// DigestsDue queries the sparse digest index: partition "D", dig ≤ before.
func (s *Store) DigestsDue(ctx context.Context, before int64) ([]string, error) {
	q := keyQuery{index: DigestIndex, cond: "#dpk = :d AND #dig <= :before",
		names:  map[string]string{"#dpk": AttrDigestPK, "#dig": AttrDigestAt},
		values: attrMap{":d": str(digestPK), ":before": num(before)}}
	return s.queryIDs(ctx, q, playerPrefix, fmt.Sprintf("digests due by %d", before))
}
