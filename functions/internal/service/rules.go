package service

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/pbmgames/pbm/engine"
)

// FirstRules is the rules version of games stored before versions were
// recorded: the rules before issue 11 changed them. Today's rules are
// version 2 of both games.
const FirstRules = 1

// settleRules gives a game stored without a rules version its version.
// One not started yet has played nothing: it takes today's rules. One
// started is of the first version, unless replaying its whole log under
// today's rules gives exactly its stored state — then nothing it has
// played depended on the change, and it goes on under today's rules.
// (The record keeps the version from its next write on.)
func (s *Service) settleRules(ctx context.Context, rec *Record) error {
	if rec.Rules != 0 {
		return nil
	}
	current := s.games.CurrentRules(rec.Kind)
	if rec.State == nil {
		rec.Rules = current
		return nil
	}
	rec.Rules = FirstRules
	stored, err := s.games.Load(rec.Kind, current, rec.State)
	if err != nil {
		return err
	}
	entries, err := s.FullLog(ctx, rec)
	if err != nil {
		return err
	}
	replayed, err := Replay(s.games, rec, current, stored.Seats(), entries, nil)
	if err != nil {
		return nil // it does not even replay: a first-version game
	}
	same, err := sameState(replayed, rec.State)
	if err != nil {
		return fmt.Errorf("settle rules version: %w", err)
	}
	if same {
		rec.Rules = current
	}
	return nil
}

// sameState compares a game's state with a stored one as JSON values.
func sameState(g engine.Game, stored []byte) (bool, error) {
	b, err := g.MarshalJSON()
	if err != nil {
		return false, err
	}
	var x, y any
	if err := json.Unmarshal(b, &x); err != nil {
		return false, err
	}
	if err := json.Unmarshal(stored, &y); err != nil {
		return false, err
	}
	return reflect.DeepEqual(x, y), nil
}

// frozen is a game of a rules version this engine no longer plays (of
// the first version, whose log does not replay under today's rules): its
// stored state can be viewed, standings included, but nothing more is
// played in it — no decision is owed, none is taken.
type frozen struct {
	engine.Game
	rules int
}

func (frozen) Owing() []engine.Seat                      { return nil }
func (frozen) Legal(engine.Seat) []engine.Choice         { return nil }
func (frozen) Default(engine.Seat) (engine.Action, bool) { return engine.Action{}, false }
func (frozen) Bot(engine.Seat) (engine.Action, bool)     { return engine.Action{}, false }

func (f frozen) Apply(seat engine.Seat, a engine.Action) (engine.Game, []engine.Event, error) {
	return nil, nil, newError(CodeWrongStatus,
		fmt.Sprintf("Эта игра начата по правилам версии %d, которых этот сервис больше не применяет: её можно смотреть, но не продолжать.", f.rules),
		fmt.Sprintf("This game was started under rules version %d, which this service no longer plays: it can be viewed, not continued.", f.rules),
		fmt.Errorf("seat %d %s in a game of rules version %d", seat, a, f.rules))
}
