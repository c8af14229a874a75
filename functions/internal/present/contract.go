package present

import (
	"encoding/json"
	"fmt"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/templates"
)

// Presenter is what a game writes to be shown, over its own view type V
// (what its engine's View(seat) gives): seven methods every game needs,
// and those of Defaulted, which Base gives and a presenter overrides where
// its game has its own. Of makes it the Game the pages and mails ask: a
// presenter never sees a view of another type, and casts none.
type Presenter[V any] interface {
	// Kind is the game's kind (engine.Info.Kind).
	Kind() string
	// ActionLabel names an action or a choice: a button, a log entry.
	ActionLabel(l string, a engine.Action, name func(int) string) string
	// Command is a log entry's action, its amount included.
	Command(l string, a engine.Action, name func(int) string) string
	// EventText tells an event in words; "" leaves it out.
	EventText(l string, e engine.Event, name func(int) string) string
	// Seats is what v shows of every seat, by engine seat.
	Seats(l string, v V) []Seat
	// Prompt says what seat is asked now (owes), or what it waits on.
	Prompt(l string, v V, seat int, owes bool, name func(int) string) string
	// Choice describes a decision of the seat page.
	Choice(l string, c engine.Choice, v V, name func(int) string) Choice

	Defaulted[V]
}

// Defaulted are the parts of a game's presentation that have a default
// (Base).
type Defaulted[V any] interface {
	// Money writes an amount the way the game counts money.
	Money(l string, v int64) string
	// Currency is the sign amounts are counted in ("$"), or "".
	Currency() string
	// CellName is a cell's number and name.
	CellName(l string, n int) string
	// SecretText is what the log says of a secret action (the engine
	// says which are: engine.Def.Secret).
	SecretText(l string) string
	// TurnEvent tells whether the event starts a turn or ends the game.
	TurnEvent(e engine.Event) bool
	// Options sums up a game's options: "20 кругов, для начинающих".
	Options(l string, raw json.RawMessage) string
	// OptionDefaults are the game's options with their defaults, those
	// whose default is the zero value included: the create form's fields.
	OptionDefaults() map[string]any
	// Option describes one option of the create form.
	Option(l, name string) Option
	// Groups are the groups of decisions in the order the page shows them.
	Groups() []Group
	// Parts lists a net worth's parts in the game's order.
	Parts(l string, parts map[string]int64) []Part
	// Squares lists every square of the board v shows: its number, name
	// and owner, for a reader the picture is too small for.
	Squares(l string, v V, name func(int) string) []Square
	// Text is the text of a key, the game's own phrases (its texts.json)
	// first, then the shared ones: a Group's title, a Choice's Group, the
	// lengths table's heading (lengths_<option>).
	Text(l, key string) string
	// Words are what the pages and mails call the game's score and cash,
	// and what its revealed seed lets a player check.
	Words(l string) Words
}

// Words are a game's names for what the shared pages and mails show of
// every game: the standings' score (its net worth), a seat's cash, and
// the sentence before the revealed seed saying what a player can check
// with it.
type Words struct {
	Worth, Cash, Checks string
	// Chart is the title of the score's chart through the game, Parts
	// the heading of what the score is made of.
	Chart, Parts string
}

// Base gives every method of Defaulted: amounts as plain numbers, cells
// by number, nothing secret, a turn at the events "turn" and
// "game_over", options summed up by nothing and labelled by their
// texts' opt_<name>, the shared groups of decisions, a net worth's parts
// by key, no list of squares. Own, when set, is what the game brings
// besides its code (NewOwn: its files, its phrases, its own texts, which
// Option, Parts and Text read first).
type Base[V any] struct{ *Own }

// texts are the game's own texts, the shared ones behind them.
func (b Base[V]) texts() templates.GameTexts {
	if b.Own == nil {
		return templates.GameTexts{}
	}
	return b.Own.Texts
}

func (Base[V]) Money(l string, v int64) string  { return templates.Money(l, v) }
func (Base[V]) Currency() string                { return "" }
func (Base[V]) CellName(_ string, n int) string { return fmt.Sprint(n) }
func (Base[V]) SecretText(string) string        { return "" }
func (Base[V]) TurnEvent(e engine.Event) bool {
	return e.Type == engine.EvTurn || e.Type == engine.EvGameOver
}
func (Base[V]) Options(string, json.RawMessage) string { return "" }
func (Base[V]) OptionDefaults() map[string]any         { return nil }
func (b Base[V]) Option(l, name string) Option         { return Option{Label: b.texts().T(l, "opt_"+name)} }
func (Base[V]) Groups() []Group {
	return []Group{{Key: "grp_here"}, {Key: "grp_other"}, {Key: "grp_leave"}}
}
func (b Base[V]) Parts(l string, parts map[string]int64) []Part {
	return PartsIn(b.texts(), l, parts, nil)
}
func (Base[V]) Squares(string, V, func(int) string) []Square { return nil }
func (b Base[V]) Text(l, key string) string                  { return b.texts().T(l, key) }
func (Base[V]) Words(l string) Words {
	return Words{Worth: templates.T(l, "net_worth"), Cash: templates.T(l, "cash"), Checks: templates.T(l, "seed_revealed"),
		Chart: templates.T(l, "chart_title"), Parts: templates.T(l, "breakdown_nw")}
}

// Of is the Game of presenter p: the pages and mails hand it any view,
// and p gets its own type. A view of another type (of another game, or
// none) shows nothing: no seats, no prompt, no squares, a decision by its
// label alone.
func Of[V any](p Presenter[V]) Game { return typed[V]{p} }

// typed is the Game of a Presenter[V].
type typed[V any] struct{ p Presenter[V] }

// unwrap is the presenter itself, for the interfaces a game may add
// (Filer, Boarder, DealWorder: optional).
func (t typed[V]) unwrap() any { return t.p }

func (t typed[V]) Kind() string                    { return t.p.Kind() }
func (t typed[V]) Money(l string, v int64) string  { return t.p.Money(l, v) }
func (t typed[V]) Currency() string                { return t.p.Currency() }
func (t typed[V]) CellName(l string, n int) string { return t.p.CellName(l, n) }
func (t typed[V]) ActionLabel(l string, a engine.Action, name func(int) string) string {
	return t.p.ActionLabel(l, a, name)
}
func (t typed[V]) Command(l string, a engine.Action, name func(int) string) string {
	return t.p.Command(l, a, name)
}
func (t typed[V]) SecretText(l string) string { return t.p.SecretText(l) }
func (t typed[V]) EventText(l string, e engine.Event, name func(int) string) string {
	return t.p.EventText(l, e, name)
}
func (t typed[V]) TurnEvent(e engine.Event) bool                 { return t.p.TurnEvent(e) }
func (t typed[V]) Options(l string, raw json.RawMessage) string  { return t.p.Options(l, raw) }
func (t typed[V]) OptionDefaults() map[string]any                { return t.p.OptionDefaults() }
func (t typed[V]) Option(l, name string) Option                  { return t.p.Option(l, name) }
func (t typed[V]) Groups() []Group                               { return t.p.Groups() }
func (t typed[V]) Parts(l string, parts map[string]int64) []Part { return t.p.Parts(l, parts) }
func (t typed[V]) Text(l, key string) string                     { return t.p.Text(l, key) }
func (t typed[V]) Words(l string) Words                          { return t.p.Words(l) }

func (t typed[V]) Seats(l string, view any) []Seat {
	if v, ok := view.(V); ok {
		return t.p.Seats(l, v)
	}
	return nil
}

func (t typed[V]) Prompt(l string, view any, seat int, owes bool, name func(int) string) string {
	if v, ok := view.(V); ok {
		return t.p.Prompt(l, v, seat, owes, name)
	}
	return ""
}

func (t typed[V]) Choice(l string, c engine.Choice, view any, name func(int) string) Choice {
	if v, ok := view.(V); ok {
		return t.p.Choice(l, c, v, name)
	}
	return Choice{Label: t.p.ActionLabel(l, c.Action, name), Group: "grp_other"}
}

func (t typed[V]) Squares(l string, view any, name func(int) string) []Square {
	if v, ok := view.(V); ok {
		return t.p.Squares(l, v, name)
	}
	return nil
}

// Underlying is the game's own presenter behind g (what Of was given):
// for the tests and tools that name its package.
func Underlying(g Game) any {
	if u, ok := g.(interface{ unwrap() any }); ok {
		return u.unwrap()
	}
	return g
}

// optional is g's presenter as T, an interface a game may add; false if
// it has not.
func optional[T any](g Game) (T, bool) {
	var p any = g
	if u, ok := g.(interface{ unwrap() any }); ok {
		p = u.unwrap()
	}
	x, ok := p.(T)
	return x, ok
}

// plain presents a game this package does not know: codes and numbers.
type plain struct {
	Base[any]
	kind string
}

func (p plain) Kind() string                                                   { return p.kind }
func (plain) Option(_, name string) Option                                     { return Option{Label: name} }
func (plain) ActionLabel(_ string, a engine.Action, _ func(int) string) string { return a.Type }
func (plain) Command(l string, a engine.Action, name func(int) string) string {
	if a.Amount != 0 {
		return a.Type + ": " + templates.Money(l, a.Amount)
	}
	return a.Type
}
func (plain) EventText(_ string, e engine.Event, name func(int) string) string {
	return name(e.Seat) + ": " + e.Type
}
func (plain) Seats(string, any) []Seat                               { return nil }
func (plain) Prompt(string, any, int, bool, func(int) string) string { return "" }
func (plain) Choice(l string, c engine.Choice, _ any, _ func(int) string) Choice {
	return Choice{Label: c.Type, Group: "grp_other"}
}
