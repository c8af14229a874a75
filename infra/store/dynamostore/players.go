package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
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

func playerKey(email string) attrMap {
	return key(playerPrefix+email, playerSK)
}

// GetPlayer reads a player with one strongly consistent GetItem.
func (s *Store) GetPlayer(ctx context.Context, email string) (store.Player, error) {
	email = normEmail(email)
	if email == "" {
		return store.Player{}, fmt.Errorf("dynamostore: get player with empty address: %w", store.ErrNotFound)
	}
	return getDecoded(ctx, s, playerKey(email), "get player "+email, func(item attrMap) (store.Player, error) {
		return decodePlayer(email, item)
	})
}

// decodePlayer reads a player item; attributes a player has never had
// written are absent and read as zero.
func decodePlayer(email string, item attrMap) (store.Player, error) {
	a := attrs{item: item}
	p := store.Player{
		Email:            email,
		Lang:             a.optString(AttrLang),
		Mail:             a.optString(AttrMail),
		TimeZone:         a.optString(AttrTZ),
		SuppressedReason: a.optString(AttrSuppReason),
		Unsubscribed:     a.optBool(AttrUnsub),
		Suppressed:       a.optBool(AttrSupp),
		SuppressedAt:     a.optNum(AttrSuppAt),
		UpdatedAt:        a.optNum(AttrUpd),
	}
	if a.err != nil {
		return store.Player{}, a.err
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

// update builds one UpdateItem on a player item: SET for the attributes in
// set, REMOVE for those in remove, ADD of add (a string set) to games.
// UpdateItem creates the item when it is missing.
type update struct {
	set    attrMap
	remove []string
	add    []string
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
		set: attrMap{AttrUpd: num(at)},
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
	u := update{set: attrMap{
		AttrUnsub: &types.AttributeValueMemberBOOL{Value: unsubscribed},
		AttrUpd:   num(at),
	}}
	for name, v := range map[string]string{AttrLang: lang, AttrMail: mail, AttrTZ: tz} {
		if v == "" {
			u.remove = append(u.remove, name)
		} else {
			u.set[name] = str(v)
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
	u := update{set: attrMap{
		AttrSupp:   &types.AttributeValueMemberBOOL{Value: true},
		AttrSuppAt: num(at),
		AttrUpd:    num(at),
	}}
	if reason == "" {
		u.remove = []string{AttrSuppReason}
	} else {
		u.set[AttrSuppReason] = str(reason)
	}
	if err := s.updatePlayer(ctx, email, u); err != nil {
		return fmt.Errorf("dynamostore: suppress player %s: %w", email, err)
	}
	return nil
}
