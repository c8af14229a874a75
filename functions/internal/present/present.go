// Package present says what the engines say, for people: the actions,
// cells, goods, events and positions of a game in Russian and English.
// Pages and mails both ask it; no rule lives here.
//
// Each game has a presenter (Game); the games a program serves are a
// value, Games (made once, in the program's wiring: functions/internal/
// catalog), which chooses a game's presenter by its kind with For. The
// pages and mails only ever talk to that
// interface, so a game's wording, its money, its panels, its decision
// groups and its board are all in the game's own folder below this one
// (present/<kind>/); this package knows no game.
package present

import (
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"sync"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/functions/internal/boardpic"
	"github.com/pbmgames/pbm/templates"
)

// Game presents one kind of game, as the pages and mails ask it: a
// game's Presenter made a Game by Of (contract.go), which gives it its
// own view type. Every method takes the reader's language ("en" English,
// anything else Russian). The views are the engine's View(seat) values,
// made for one reader (P-3): a presenter shows what is in them and
// nothing else.
type Game interface {
	// Presenter over any view: its view methods take the view as the
	// engine gives it, which Of's adapter hands its game's presenter as
	// its own type.
	Presenter[any]
}

// Square is one square of the board in words. Owner is the owning seat,
// −1 for none; Note tells its state (a branch, pledged, leading).
type Square struct {
	N           int
	Name, Owner string
	Seat        int
	Note        string
}

// Seat is what a view shows of one seat: where it is, its money and
// what it owns. The reader's own secrets (its hand) are in it only in
// that reader's view.
type Seat struct {
	Cell         string // the cell's number and name
	Laps, LapsOf int
	Cash         int64
	Bankrupt     bool
	Facts        []Fact   // the figures, cash first
	Notes        []string // states: in prison, protected…
	Lists        []List   // what it owns: goods, lots, shares, cards
}

// Fact is one figure of a seat.
type Fact struct{ Label, Value string }

// List is a titled list of things a seat holds.
type List struct {
	Title string
	Items []Item
	// Private marks the reader's own secret (its hand): pages say so.
	Private bool
}

// Item is one thing held. Colour is a swatch (a CSS colour) before it;
// Marks are CSS classes of its state (lead, pledged, b1, b2); Title tells
// the state in words.
type Item struct {
	Text, Colour, Title string
	Marks               string
}

// Part is one part of a net worth.
type Part struct {
	Label string
	Value int64
}

// Group is a group of decisions on the seat page. Its title is the text
// of Key (templates). Own groups are listed only on a page of their own.
type Group struct {
	Key string
	Own bool
}

// Choice is how the seat page shows one decision.
type Choice struct {
	Label, Note string
	Unit        string // what a ranged amount counts
	Value       int64  // a ranged choice's suggested amount (0: none: the player types it)
	// Button words a ranged choice's button with %s where the amount
	// goes ("Take a %s credit"); "" is Label and the amount after it.
	Button string
	Group  string // a Group key; "" is the first, untitled group
	// Choices of one group with the same Form are one form on the page,
	// a select of their Alt texts labelled AltLabel, under the Label of
	// the first.
	Form, Alt, AltLabel string
}

// Option describes one option of a game on the create form.
type Option struct {
	Label    string
	Min, Max int            // bounds of a number
	Choices  []OptionChoice // the values of an option chosen from a list
}

// OptionChoice is one value of an option chosen from a list.
type OptionChoice struct{ Value, Label string }

// Filer is a presenter that brings files to the shared parts.
type Filer interface {
	// Files are the game's own files: texts.json (its phrases by key,
	// each a Russian and an English text), rules.ru.html and
	// rules.en.html (its rules in short, a fragment of its rules page) and
	// openapi.json (its part of the JSON API's document), embedded in
	// its folder.
	Files() embed.FS
}

// File is one of a presenter's files (Filer); false if it has none of
// that name.
func File(g Game, name string) ([]byte, bool) {
	f, ok := optional[Filer](g)
	if !ok {
		return nil, false
	}
	b, err := f.Files().ReadFile(name)
	return b, err == nil
}

// Rules are the rules in short of a game, in the reader's language; ""
// for a game without them.
func Rules(l string, g Game) template.HTML {
	b, _ := File(g, "rules."+templates.Pick(l, "ru", "en")+".html")
	return template.HTML(b) // the game's own file, not input
}

// LazyTexts are a game's own phrases by key (its texts.json), read on
// their first look-up (templates.GameTexts). A file that does not read is
// a programming error, and that look-up panics on it (TestGameFilesRead
// reads every game's).
func LazyTexts(files embed.FS, name string) templates.GameTexts {
	return templates.NewGameTexts(func() map[string][2]string {
		return mustDecode[map[string][2]string](files, "texts", name)
	})
}

// Phrases are a game's texts of its actions and events by type, each a
// Russian and an English text.
type Phrases struct {
	Actions map[string][2]string `json:"actions"`
	Events  map[string][2]string `json:"events"`
	// Deals are the sentences of its deals (DealPhrases).
	Deals DealPhrases `json:"deals"`
}

// LazyPhrases are a game's phrases, read from its embedded files on
// their first use rather than at start: decoding them is 0.08–0.14 ms of
// every cold start of each game (issue 16), and a function that words no
// action (bounces, an empty stream batch) never needs them. A file that
// does not read is a programming error, and that first use panics on it
// (TestGameFilesRead reads every game's).
func LazyPhrases(files embed.FS, name string) func() Phrases {
	return sync.OnceValue(func() Phrases { return MustPhrases(files, name) })
}

// MustPhrases reads a game's phrases from its embedded files; a file that
// does not read is a programming error, and MustPhrases panics on it.
func MustPhrases(files embed.FS, name string) Phrases {
	return mustDecode[Phrases](files, "phrases", name)
}

// mustDecode reads the JSON file name of a game's embedded files as a T;
// a file that does not read is a programming error, and it panics on it,
// naming what the file holds.
func mustDecode[T any](files embed.FS, what, name string) T {
	var v T
	b, err := files.ReadFile(name)
	if err == nil {
		err = json.Unmarshal(b, &v)
	}
	if err != nil {
		panic(fmt.Sprintf("present: %s %s: %v", what, name, err))
	}
	return v
}

// Own is what a game's presenter brings besides its code, embedded in its
// folder (Filer), and what it reads of it lazily: its phrases by type
// (phrases.json, LazyPhrases) and its own texts by key (texts.json,
// LazyTexts). A presenter embeds it, by pointer (NewOwn) so that
// presenters stay comparable, for Files, Text and DealPhrases (a
// DealWorder with its GoodName).
type Own struct {
	files embed.FS
	// Phrases are the texts of the actions, events and deals by type,
	// read on their first use.
	Phrases func() Phrases
	// Texts are the game's own phrases by key, the shared ones behind
	// them, read on their first look-up.
	Texts templates.GameTexts
}

// NewOwn is a game's Own of its embedded files, read nothing yet.
func NewOwn(files embed.FS) *Own {
	return &Own{files: files, Phrases: LazyPhrases(files, "phrases.json"), Texts: LazyTexts(files, "texts.json")}
}

// Files are the game's own files (Filer).
func (o *Own) Files() embed.FS {
	if o == nil {
		return embed.FS{} // a presenter with no files (Base without Own)
	}
	return o.files
}

// Text is the text of a key, the game's own phrases first.
func (o *Own) Text(l, key string) string {
	if o == nil {
		return templates.T(l, key)
	}
	return o.Texts.T(l, key)
}

// DealPhrases are the sentences of the game's deals (DealWorder).
func (o *Own) DealPhrases() DealPhrases {
	if o == nil {
		return nil
	}
	return o.Phrases().Deals
}

// Unworded is how game g shows an event it has no words for: its seat,
// its type and its amount in the game's money.
func Unworded(l string, g interface {
	Money(l string, v int64) string
}, who string, e engine.Event) string {
	if e.Amount != 0 {
		return fmt.Sprintf("%s: %s %s", who, e.Type, g.Money(l, e.Amount))
	}
	return fmt.Sprintf("%s: %s", who, e.Type)
}

// OptionsText sums up a game's options: its laps, then the notes that
// apply ("" for one that does not); "" for options that did not read (ok
// false, ReadOptions).
func OptionsText(l string, ok bool, laps int, notes ...string) string {
	if !ok {
		return ""
	}
	s := templates.Count(l, "n_laps", laps)
	for _, n := range notes {
		if n != "" {
			s += ", " + n
		}
	}
	return s
}

// NoteIf is the text of key (a game's own phrase or a shared one) when on
// holds, else "".
func NoteIf(texts templates.GameTexts, l string, on bool, key string) string {
	if !on {
		return ""
	}
	return texts.T(l, key)
}

// Boarder is a presenter that draws its game's board.
type Boarder interface {
	// Board is the layout of the game's board.
	Board() boardpic.Layout
}

// Board is the layout of a game's board; nil (no picture) for a game
// that has none.
func Board(g Game) boardpic.Layout {
	if b, ok := optional[Boarder](g); ok {
		return b.Board()
	}
	return nil
}

// Games are the games a program serves, as a value: each one's engine
// entry (games.Registry) and its presenter, in the order the program
// listed them. Nothing else keeps a list of games: what a function serves
// is what its wiring hands it.
type Games struct {
	engines    *games.Registry
	presenters map[string]Game
}

// NewGames pairs the games of engines with their presenters; a game
// without a presenter, or a presenter without a game, is a programming
// error, met at start-up.
func NewGames(engines *games.Registry, presenters ...Game) *Games {
	gs := &Games{engines: engines, presenters: make(map[string]Game, len(presenters))}
	for _, p := range presenters {
		if _, ok := engines.Lookup(p.Kind()); !ok {
			panic(fmt.Sprintf("present: a presenter of %q, a game not given", p.Kind()))
		}
		if _, dup := gs.presenters[p.Kind()]; dup {
			panic(fmt.Sprintf("present: %q presented twice", p.Kind()))
		}
		gs.presenters[p.Kind()] = p
	}
	for _, k := range engines.Kinds() {
		if _, ok := gs.presenters[k]; !ok {
			panic(fmt.Sprintf("present: %q has no presenter", k))
		}
	}
	return gs
}

// Engines are the games' engine entries.
func (gs *Games) Engines() *games.Registry { return gs.engines }

// Kinds are the games' kinds, in the order the program listed them: the
// first is the one a form offers first.
func (gs *Games) Kinds() []string { return gs.engines.Kinds() }

// For is the presenter of a kind of game; an unknown kind gets a plain
// one that shows codes.
func (gs *Games) For(kind string) Game {
	if g, ok := gs.presenters[kind]; ok {
		return g
	}
	return Of[any](plain{kind: kind})
}

// GameName is the name of a kind of game.
func (gs *Games) GameName(lang, kind string) string {
	if info, ok := gs.engines.Lookup(kind); ok {
		return templates.Pick(lang, info.RU, info.EN)
	}
	return kind
}

// OverText says why the game ended, from the game-over event among evs
// (the newest), in the reader's language; "" if there is none.
func OverText(p Game, l string, evs []engine.Event, name func(int) string) string {
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == gameOver {
			return p.EventText(l, evs[i], name)
		}
	}
	return ""
}

// gameOver is the type of every game's last event.
const gameOver = engine.EvGameOver

// ReadOptions reads a game's stored options (JSON) over its defaults;
// false if they do not read.
func ReadOptions[T any](raw json.RawMessage, defaults T) (T, bool) {
	o := defaults
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &o); err != nil {
			return o, false
		}
	}
	return o, true
}

// Defaults reads a game's default options as the form shows them.
func Defaults(opts any) map[string]any {
	b, err := json.Marshal(opts)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}

// Abs is v without its sign: an amount gained or lost.
func Abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// PartsIn lists parts in the order of keys (with their text keys), the
// unknown ones last by name.
func PartsIn(texts templates.GameTexts, l string, parts map[string]int64, order [][2]string) []Part {
	var out []Part
	known := map[string]bool{}
	for _, o := range order {
		known[o[0]] = true
		if v, ok := parts[o[0]]; ok {
			out = append(out, Part{texts.T(l, o[1]), v})
		}
	}
	var rest []string
	for k := range parts {
		if !known[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		out = append(out, Part{texts.T(l, k), parts[k]})
	}
	return out
}

// PlayedFor says, to the seat itself only, what was played for it without
// its player: by is a log entry's origin, "order" (its standing orders)
// or "deadline" (a missed deadline's default); "" for any other. Callers
// never show it to another seat: orders are private.
func PlayedFor(l string, g Game, a engine.Action, by string, name func(int) string) string {
	switch by {
	case "order":
		return templates.Tf(l, "by_order", g.ActionLabel(l, a, name))
	case "deadline":
		return templates.Tf(l, "by_deadline", g.ActionLabel(l, a, name))
	case "prepared":
		return templates.Tf(l, "by_prepared", g.Command(l, a, name))
	}
	return ""
}
