package present_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/grammar"
	"github.com/pbmgames/pbm/templates"
)

// constants reads the string constants of an engine package whose names
// start with prefix: every event (Ev) or action (A) type it has, those
// no bot game happens to reach included.
func constants(t *testing.T, dir, prefix string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, id := range vs.Names {
				if !strings.HasPrefix(id.Name, prefix) || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					s, _ := strconv.Unquote(lit.Value)
					out = append(out, s)
				}
			}
			return true
		})
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// games are the two games with an example of what their events name.
var bothGames = []struct {
	kind, dir, good, options string
	cells                    []int
}{
	{"western", "../../../engine/western", "cars", `{"laps":3}`, []int{0, 5, 17}},
	{"businessman", "../../../engine/businessman", "red", `{"laps":6,"rent_claim":"claim"}`, []int{0, 2, 24, 48}},
}

// pairs name the seats with a woman's and a man's name, each in each
// place.
var pairs = [][]string{{"Вера", "Борис", "Анна", "Игорь", "Ольга", "Пётр"}, {"Борис", "Вера", "Игорь", "Анна", "Пётр", "Ольга"}}

// TestRussianAgrees (issue 10): every event, action, prompt and decision
// of both games, and every text of the pages and mails, reads correctly
// in Russian with a woman's and with a man's name: no past tense or
// short participle that agrees with the name, no name where Russian
// wants an oblique case.
func TestRussianAgrees(t *testing.T) {
	for _, gm := range bothGames {
		t.Run(gm.kind, func(t *testing.T) {
			p := testGames.For(gm.kind)
			events := constants(t, gm.dir, "Ev")
			actions := append(constants(t, gm.dir, "A"), engine.Resign)
			if len(events) < 30 || len(actions) < 10 {
				t.Fatalf("%d event and %d action types read", len(events), len(actions))
			}
			for _, names := range pairs {
				name := func(s int) string {
					if s < 0 || s >= len(names) {
						return "—"
					}
					return names[s]
				}
				check := func(what, text string) {
					t.Helper()
					for _, pr := range grammar.Problems(text, false, names...) {
						t.Errorf("%s %q: %s", what, text, pr)
					}
				}
				for _, typ := range events {
					for seat := range 2 {
						for _, other := range []int{-1, 0, 1, 2, 5} {
							for _, amount := range []int64{-1500, 0, 1500} {
								for _, cell := range gm.cells {
									for _, good := range []string{"", gm.good} {
										e := engine.Event{Type: typ, Seat: seat, Other: other, Amount: amount, Cell: cell, Good: good}
										check("event "+typ, p.EventText("ru", e, name))
									}
								}
							}
						}
					}
				}
				for _, typ := range actions {
					for _, cell := range gm.cells {
						for _, good := range []string{"", gm.good} {
							a := engine.Action{Type: typ, Cell: cell, Good: good, Target: 1, Amount: 3}
							check("action "+typ, p.ActionLabel("ru", a, name))
							check("command "+typ, p.Command("ru", a, name))
						}
					}
				}
				botGame(t, gm.kind, 4, gm.options, func(g engine.Game, _ []engine.Event) {
					for _, s := range g.Owing() {
						v := g.View(s)
						check("prompt", p.Prompt("ru", v, s, true, name))
						for _, c := range g.Legal(s) {
							ch := p.Choice("ru", c, v, name)
							check("choice "+c.Type, ch.Label+". "+ch.Note+". "+ch.Alt+". "+ch.AltLabel)
						}
					}
					for i := range g.Seats() {
						check("prompt of a waiting seat", p.Prompt("ru", g.View(i), i, false, name))
					}
				})
			}
		})
	}
	// The texts of the pages and mails stand beside names (badges, the
	// organiser's list): none may agree with one.
	for _, k := range allTexts(t) {
		text := k.t("ru")
		if ownSubject[k.key] {
			continue
		}
		for _, pr := range grammar.Problems(text, true) {
			t.Errorf("text %s %q: %s", k.key, text, pr)
		}
	}
	byKey := map[string]keyedText{}
	for _, k := range allTexts(t) {
		byKey[k.key] = k
	}
	for key := range nameFirst {
		k, ok := byKey[key]
		if !ok {
			t.Errorf("text %s: no such text", key)
			continue
		}
		for _, n := range []string{"Вера", "Борис"} {
			text := k.t("ru")
			args := []any{n}
			for range strings.Count(text, "%") - 1 {
				args = append(args, "X")
			}
			filled := k.tf("ru", args...)
			for _, pr := range grammar.Problems(filled, false, n) {
				t.Errorf("text %s %q: %s", key, filled, pr)
			}
		}
	}
}

// keyedText is a text by key: a shared one (templates) or a game's own
// (its presenter's Text).
type keyedText struct {
	key string
	t   func(l string) string
	tf  func(l string, args ...any) string
}

// allTexts are the shared texts and every game's own.
func allTexts(t *testing.T) []keyedText {
	var out []keyedText
	for _, k := range templates.Keys() {
		out = append(out, keyedText{k, func(l string) string { return templates.T(l, k) },
			func(l string, args ...any) string { return templates.Tf(l, k, args...) }})
	}
	for _, kind := range testGames.Kinds() {
		p := testGames.For(kind)
		var texts map[string][2]string
		read(t, kind, "texts.json", &texts)
		for k := range texts {
			out = append(out, keyedText{k, func(l string) string { return p.Text(l, k) },
				func(l string, args ...any) string { return templates.Sprintf(l, p.Text(l, k), args...) }})
		}
	}
	return out
}

// ownSubject are texts whose past tense agrees with their own subject,
// never with a player: «срок вышел», «ваш выбор изменился».
var ownSubject = map[string]bool{"due_now": true, "choice_changed": true,
	// «кто-то попросил», «никто не написал», «сезон (тур) начался»,
	// «решил капитал»: the subject is in the text (a round's own line for
	// league_round_waiting), never a player.
	"mail_signin": true, "talk_none": true, "league_no_season": true, "league_tied_nw": true,
	"league_mail_round": true, "league_round_waiting": true}

// nameFirst are the texts whose first argument is a player's name.
var nameFirst = map[string]bool{"hello": true, "invite_link_for": true, "chart_desc_seat": true, "ask_offer": true, "note_owner": true}

// enPlural is an English count of one with a plural noun ("1 actions")
// or a count of two or more with a singular one is checked by hand: the
// nouns our texts count.
var enOne = regexp.MustCompile(`(^|[^\d.,])1 (actions|laps|turns|units|tons|shares|lots|holdings|players|steps|exchange cards|cards)\b`)
var enTwo = regexp.MustCompile(`(^|[^\d.,])2 (action|lap|turn|unit|ton|share|lot|holding|player|step|exchange card|card)\b`)

// TestEnglishCounts (issue 10): every English text with a count reads
// right for 1 and for 2: the counted page texts, and every event and
// action of both games with a count of 1 and of 2.
func TestEnglishCounts(t *testing.T) {
	check := func(what, text string) {
		t.Helper()
		if enOne.MatchString(text) || enTwo.MatchString(text) {
			t.Errorf("%s: %q", what, text)
		}
	}
	for _, k := range allTexts(t) {
		for _, n := range []int{1, 2} {
			text := k.t("en")
			if !strings.Contains(text, "%d") && text != k.key {
				continue
			}
			check("text "+k.key, k.tf("en", n, n, n))
		}
	}
	name := func(s int) string { return "P" + strconv.Itoa(s) }
	for _, gm := range bothGames {
		p := testGames.For(gm.kind)
		for _, typ := range constants(t, gm.dir, "Ev") {
			for _, n := range []int{1, 2, -1, -2} {
				for _, cell := range gm.cells {
					e := engine.Event{Type: typ, Seat: 0, Other: n, Amount: int64(n), Cell: cell, Good: gm.good}
					check(gm.kind+" event "+typ, p.EventText("en", e, name))
				}
			}
		}
		for _, typ := range append(constants(t, gm.dir, "A"), engine.Resign) {
			for _, n := range []int64{1, 2} {
				a := engine.Action{Type: typ, Cell: gm.cells[1], Good: gm.good, Target: 1, Amount: n}
				check(gm.kind+" command "+typ, p.Command("en", a, name))
			}
		}
		check(gm.kind+" options", p.Options("en", []byte(`{"laps":1}`)))
	}
}
