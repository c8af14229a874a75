package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
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

func playerKey(email string) map[string]types.AttributeValue {
	return key(playerPrefix+email, playerSK)
}

func num(v int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
}

// GetPlayer reads a player with one strongly consistent GetItem.
func (s *Store) GetPlayer(ctx context.Context, email string) (store.Player, error) {
	email = normEmail(email)
	if email == "" {
		return store.Player{}, fmt.Errorf("dynamostore: get player with empty address: %w", store.ErrNotFound)
	}
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(s.table),
		Key:            playerKey(email),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return store.Player{}, fmt.Errorf("dynamostore: get player %s: %w", email, err)
	}
	if out.Item == nil {
		return store.Player{}, fmt.Errorf("dynamostore: get player %s: %w", email, store.ErrNotFound)
	}
	p, err := decodePlayer(email, out.Item)
	if err != nil {
		return store.Player{}, fmt.Errorf("dynamostore: get player %s: %w", email, err)
	}
	return p, nil
}

// decodePlayer reads a player item; attributes a player has never had
// written are absent and read as zero.
func decodePlayer(email string, item map[string]types.AttributeValue) (store.Player, error) {
	p := store.Player{Email: email}
	var err error
	if p.Lang, err = optString(item, AttrLang); err != nil {
		return store.Player{}, err
	}
	if p.Mail, err = optString(item, AttrMail); err != nil {
		return store.Player{}, err
	}
	if p.TimeZone, err = optString(item, AttrTZ); err != nil {
		return store.Player{}, err
	}
	if p.SuppressedReason, err = optString(item, AttrSuppReason); err != nil {
		return store.Player{}, err
	}
	if p.Unsubscribed, err = optBool(item, AttrUnsub); err != nil {
		return store.Player{}, err
	}
	if p.Suppressed, err = optBool(item, AttrSupp); err != nil {
		return store.Player{}, err
	}
	if _, ok := item[AttrSuppAt]; ok {
		if p.SuppressedAt, err = numAttr(item, AttrSuppAt); err != nil {
			return store.Player{}, err
		}
	}
	if _, ok := item[AttrUpd]; ok {
		if p.UpdatedAt, err = numAttr(item, AttrUpd); err != nil {
			return store.Player{}, err
		}
	}
	switch v := item[AttrGames].(type) {
	case nil:
	case *types.AttributeValueMemberSS:
		p.Games = slices.Clone(v.Value)
		slices.Sort(p.Games)
	default:
		return store.Player{}, fmt.Errorf("attribute %s is not a string set", AttrGames)
	}
	return p, nil
}

func optString(item map[string]types.AttributeValue, name string) (string, error) {
	switch v := item[name].(type) {
	case nil:
		return "", nil
	case *types.AttributeValueMemberS:
		return v.Value, nil
	default:
		return "", fmt.Errorf("attribute %s is not a string", name)
	}
}

func optBool(item map[string]types.AttributeValue, name string) (bool, error) {
	switch v := item[name].(type) {
	case nil:
		return false, nil
	case *types.AttributeValueMemberBOOL:
		return v.Value, nil
	default:
		return false, fmt.Errorf("attribute %s is not a boolean", name)
	}
}

// update builds one UpdateItem on a player item: SET for the attributes in
// set, REMOVE for those in remove, ADD of add (a string set) to games.
// UpdateItem creates the item when it is missing.
type update struct {
	set    map[string]types.AttributeValue
	remove []string
	add    []string
}

func (s *Store) updatePlayer(ctx context.Context, email string, u update) error {
	names := map[string]string{}
	values := map[string]types.AttributeValue{}
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
		values[":add"] = &types.AttributeValueMemberSS{Value: u.add}
		expr = append(expr, "ADD #"+AttrGames+" :add")
	}
	_, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
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
		set: map[string]types.AttributeValue{AttrUpd: num(at)},
		add: []string{gameID},
	})
	if err != nil {
		return fmt.Errorf("dynamostore: add game %s to player %s: %w", gameID, email, err)
	}
	return nil
}

// SetPlayerPrefs sets the preferences with one UpdateItem. An empty
// language or mail preference removes the attribute.
func (s *Store) SetPlayerPrefs(ctx context.Context, email, lang, mail, tz string, unsubscribed bool, at int64) error {
	email = normEmail(email)
	if email == "" {
		return errors.New("dynamostore: set player prefs with empty address")
	}
	u := update{set: map[string]types.AttributeValue{
		AttrUnsub: &types.AttributeValueMemberBOOL{Value: unsubscribed},
		AttrUpd:   num(at),
	}}
	for name, v := range map[string]string{AttrLang: lang, AttrMail: mail, AttrTZ: tz} {
		if v == "" {
			u.remove = append(u.remove, name)
		} else {
			u.set[name] = &types.AttributeValueMemberS{Value: v}
		}
	}
	slices.Sort(u.remove)
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
	u := update{set: map[string]types.AttributeValue{
		AttrSupp:   &types.AttributeValueMemberBOOL{Value: true},
		AttrSuppAt: num(at),
		AttrUpd:    num(at),
	}}
	if reason == "" {
		u.remove = []string{AttrSuppReason}
	} else {
		u.set[AttrSuppReason] = &types.AttributeValueMemberS{Value: reason}
	}
	if err := s.updatePlayer(ctx, email, u); err != nil {
		return fmt.Errorf("dynamostore: suppress player %s: %w", email, err)
	}
	return nil
}
