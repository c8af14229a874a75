package httpapi

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/functions/internal/lengths"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/templates"
	// The games the pages show: their presenters register here.
)

// The home page creates a game: which game and its options, the time for
// a move, what missed deadlines lead to, the organiser and the players.
// Each game's options are read from its defaults in the registry, so a
// new game gets its fields without a change here.

// optField is one option of a game on the form.
type optField struct {
	Kind, Name, Label, Input string // Input: number, checkbox, select or text
	ID, Value, Min, Max      string
	Checked                  bool
	Choices                  []optChoice
}

// optChoice is one value of an option chosen from a list.
type optChoice struct {
	Value, Label string
	Selected     bool
}

// kindForm is one game on the form.
type kindForm struct {
	Kind, Name         string
	Players            string // how many players it takes, in words
	MinSeats, MaxSeats int
	Selected           bool
	Fields             []optField
	Lengths            *lengthTable
}

// lengthTable offers a game's lengths with the calendar simulator's
// estimates (package lengths): a row a length, a column a seat count.
type lengthTable struct {
	Deadline string
	Assume   string // what the simulated people do, in words
	// Header names the game's length (its texts' lengths_<option>: for
	// laps, «Кругов»).
	Header string
	Seats  []int
	Rows   []lengthRow
}

// lengthRow is one length the game offers (Info.Length): its value and
// the estimates at each seat count.
type lengthRow struct {
	Length int
	Cells  []lengthCell
}

// lengthCell is one estimate, short: the note under the table says it
// in full.
type lengthCell struct{ Short string }

// defaultKind is the game the form offers first, whatever the order of
// the list: the first the catalog lists (SPEC §1: the service's first
// game).
func (a *api) defaultKind() string {
	if kinds := a.games.Kinds(); len(kinds) > 0 {
		return kinds[0]
	}
	return ""
}

var deadlineChoices = []int{12, 24, 48, 72, 120, 168, 336}

type homeData struct {
	page
	Kinds     []kindForm
	KindCSS   template.CSS
	Rows      []seatRow
	Deadlines []deadlineChoice
	Misses    string
	Drop      bool
	OrgName   string
	GameName  string
	// NameHint is the game the example name of a game names.
	NameHint string
	OrgEmail string
	OrgLang  string
	Error    string
	// Key makes the form's creation idempotent: sent again (back, then
	// «create» again) it lands on the game it made (issue 10).
	Key string
}

type seatRow struct {
	N                 int
	Name, Email, Lang string
}

type deadlineChoice struct {
	Hours    int
	Label    string
	Selected bool
}

func (a *api) homePage(w http.ResponseWriter, r *http.Request) {
	// Unlike every other page, the blank form is kept by the browser
	// (never by a shared cache): going back to it shows the same form
	// with the same key, so that sending it again lands on the game it
	// made. It holds no secret.
	w.Header().Set("Cache-Control", "private, no-cache")
	if pre, ok := a.prerenderedHome(r); ok {
		pre.write(w, r, newFormKey())
		return
	}
	a.renderHome(w, r, http.StatusOK, "", nil)
}

// renderHome draws the form, filled with what was posted when it is shown
// again with an error.
func (a *api) renderHome(w http.ResponseWriter, r *http.Request, status int, msg string, f url.Values) {
	d := a.homeForm(r, msg, f)
	if d.Key == "" {
		d.Key = newFormKey()
	}
	a.render(w, r, status, "home.html", d)
}

// homeForm is what the home page shows for r: the blank form (f nil), or
// the form filled with what was posted (f) and msg, its error. Its Key is
// the one posted, if any: the caller makes a fresh one.
func (a *api) homeForm(r *http.Request, msg string, f url.Values) homeData {
	l := lang(r)
	d := homeData{page: newPage(r, "create"), Error: msg, OrgName: f.Get("org_name"), GameName: f.Get("game_name"), OrgEmail: f.Get("org_email"),
		OrgLang: f.Get("org_lang"), Misses: f.Get("misses"), Drop: f.Get("on_misses") == service.OnMissesDrop, Key: f.Get("key"),
		NameHint: a.gameName(l, a.defaultKind())}
	if d.OrgLang == "" {
		d.OrgLang = l
	}
	if d.Misses == "" {
		d.Misses = strconv.Itoa(service.DefaultMissesToBot)
	}
	hours := service.DefaultDeadlineHours
	if h, err := strconv.Atoi(f.Get("deadline")); err == nil {
		hours = h
	}
	chosen := f.Get("kind")
	if _, ok := a.games.Engines().Lookup(chosen); !ok {
		chosen = a.defaultKind()
	}
	var css strings.Builder
	for _, info := range a.games.Engines().List() {
		k := kindForm{Kind: info.Kind, Name: a.gameName(l, info.Kind), Players: seatRange(l, info), MinSeats: info.MinSeats, MaxSeats: info.MaxSeats,
			Selected: info.Kind == chosen}
		for _, o := range a.optionFields(l, info) {
			if f != nil && k.Selected {
				v := formOption(f, info.Kind, o.Name)
				o.Value, o.Checked = v, v != ""
				for i := range o.Choices {
					o.Choices[i].Selected = o.Choices[i].Value == v
				}
			}
			k.Fields = append(k.Fields, o)
		}
		k.Lengths = a.lengthsOf(l, info, hours)
		// Without a script, each game's options show only while it is
		// chosen (kinds are registry names: letters only).
		fmt.Fprintf(&css, `.create:has(option[value="%s"]:checked) .opts:not(.o-%s){display:none}`, info.Kind, info.Kind)
		d.Kinds = append(d.Kinds, k)
	}
	if len(d.Kinds) > 1 {
		d.KindCSS = template.CSS(css.String())
	}
	for i := range a.maxSeats() {
		k := strconv.Itoa(i)
		row := seatRow{N: i + 1, Name: f.Get("name" + k), Email: f.Get("email" + k), Lang: f.Get("lang" + k)}
		if row.Lang == "" {
			row.Lang = l // a player's mails default to the form's language
		}
		d.Rows = append(d.Rows, row)
	}
	for _, h := range deadlineChoices {
		d.Deadlines = append(d.Deadlines, deadlineChoice{Hours: h, Label: views.Duration(l, timeHours(h)), Selected: h == hours})
	}
	return d
}

// newFormKey is a fresh idempotency key for the form: 20 random bytes.
func newFormKey() string {
	b := make([]byte, 20)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return base64.RawURLEncoding.EncodeToString(b)
}

// lengthsOf is the table of a game's lengths at the default options and
// the deadline chosen; nil when the simulator has no figures for it.
func (a *api) lengthsOf(l string, info games.Info, hours int) *lengthTable {
	d, err := lengths.Current()
	if err != nil {
		return nil
	}
	if !info.Length.Has() {
		return nil
	}
	t := &lengthTable{Deadline: views.Duration(l, timeHours(hours)), Assume: d.Assume.Text(l),
		Header: a.games.For(info.Kind).Text(l, "lengths_"+info.Length.Option)}
	byLength := map[int]int{} // index in t.Rows
	for seats := info.MinSeats; seats <= info.MaxSeats; seats++ {
		est, err := lengths.Figures(a.games.Engines(), info.Kind, nil, seats, hours)
		if err != nil || len(est) == 0 {
			return nil
		}
		t.Seats = append(t.Seats, seats)
		for _, e := range est {
			i, ok := byLength[e.Laps]
			if !ok {
				i = len(t.Rows)
				t.Rows = append(t.Rows, lengthRow{Length: e.Laps})
				byLength[e.Laps] = i
			}
			t.Rows[i].Cells = append(t.Rows[i].Cells, lengthCell{Short: templates.Tf(l, "length_cell", e.Days, e.DaysP90, e.TurnsEach)})
		}
	}
	for _, r := range t.Rows {
		if len(r.Cells) != len(t.Seats) {
			return nil // a length not simulated at every seat count
		}
	}
	return t
}

// seatRange says how many players a game takes: «2–6 игроков», or «2
// игрока» for a game of one seat count.
func seatRange(l string, info games.Info) string {
	if info.MinSeats == info.MaxSeats {
		return templates.Count(l, "n_players_exactly", info.MinSeats)
	}
	return templates.Tf(l, "n_players", info.MinSeats, info.MaxSeats)
}

// maxSeats is the most seats any game takes: the rows of the form.
func (a *api) maxSeats() int {
	n := 0
	for _, info := range a.games.Engines().List() {
		n = max(n, info.MaxSeats)
	}
	return n
}

func timeHours(h int) time.Duration { return time.Duration(h) * time.Hour }

// optionFields lists a game's options from its defaults, as its
// presenter describes them: numbers, yes/no, a value from a list, text.
func (a *api) optionFields(l string, info games.Info) []optField {
	p := a.games.For(info.Kind)
	defs := p.OptionDefaults()
	if defs == nil {
		defs = map[string]any{}
	}
	// The registry's defaults win: a game by mail is shorter than the
	// board game's own default (games.Info.Defaults).
	var byMail map[string]any
	if err := json.Unmarshal(info.Defaults(), &byMail); err == nil {
		maps.Copy(defs, byMail)
	}
	// Numbers first (the laps to play come before a variant), then by name.
	rank := func(v any) int {
		switch v.(type) {
		case float64:
			return 0
		case string:
			return 1
		}
		return 2
	}
	var names []string
	for k := range defs {
		names = append(names, k)
	}
	slices.SortFunc(names, func(a, b string) int {
		if d := rank(defs[a]) - rank(defs[b]); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	var out []optField
	for _, n := range names {
		desc := p.Option(l, n)
		o := optField{Kind: info.Kind, Name: n, ID: "opt_" + info.Kind + "_" + n, Label: desc.Label}
		switch v := defs[n].(type) {
		case float64:
			o.Input, o.Value = "number", strconv.FormatFloat(v, 'f', -1, 64)
			if desc.Max > 0 {
				o.Min, o.Max = strconv.Itoa(desc.Min), strconv.Itoa(desc.Max)
			}
		case bool:
			o.Input, o.Checked = "checkbox", v
		case string:
			o.Input, o.Value = "text", v
			for _, c := range desc.Choices {
				o.Input = "select"
				o.Choices = append(o.Choices, optChoice{Value: c.Value, Label: c.Label, Selected: c.Value == v})
			}
		default:
			continue
		}
		out = append(out, o)
	}
	return out
}

// formOption reads an option of kind from the form: its own field, or
// the bare name older forms and scripts post.
func formOption(f url.Values, kind, name string) string {
	if v, ok := f["opt_"+kind+"_"+name]; ok && len(v) > 0 {
		return strings.TrimSpace(v[0])
	}
	return strings.TrimSpace(f.Get(name))
}

// createPage creates a game from the home page's form.
func (a *api) createPage(w http.ResponseWriter, r *http.Request) {
	l := lang(r)
	err := readForm(r)
	if err != nil {
		e, status := a.classify(r, err)
		a.renderHome(w, r, status, e.Message(l), nil)
		return
	}
	f := r.PostForm
	fail := func(status int, msg string) { a.renderHome(w, r, status, msg, f) }
	req := service.CreateRequest{
		Key:       f.Get("key"),
		Client:    clientAddr(r),
		Kind:      f.Get("kind"),
		Name:      f.Get("game_name"),
		Organiser: service.Person{Name: f.Get("org_name"), Email: f.Get("org_email"), Lang: f.Get("org_lang")},
		OnMisses:  f.Get("on_misses"),
	}
	info, ok := a.games.Engines().Lookup(req.Kind)
	if !ok {
		fail(http.StatusBadRequest, service.AsError(service.Fail(service.CodeInvalid, fmt.Errorf("kind %q", req.Kind))).Message(l))
		return
	}
	opts := map[string]any{}
	for _, o := range a.optionFields(l, info) {
		v := formOption(f, info.Kind, o.Name)
		switch o.Input {
		case "number":
			if v == "" {
				continue
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				fail(http.StatusBadRequest, o.Label+": "+service.Fail(service.CodeInvalid, err).Message(l))
				return
			}
			opts[o.Name] = n
		case "checkbox":
			if v != "" {
				opts[o.Name] = true
			}
		case "text", "select":
			if v != "" {
				opts[o.Name] = v
			}
		}
	}
	if len(opts) > 0 {
		req.Options, _ = json.Marshal(opts)
	}
	for _, fld := range []struct {
		name string
		dst  *int
	}{{"deadline", &req.DeadlineHours}, {"misses", &req.MissesToBot}} {
		if v := strings.TrimSpace(f.Get(fld.name)); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				fail(http.StatusBadRequest, service.Fail(service.CodeInvalid, err).Message(l))
				return
			}
			*fld.dst = n
		}
	}
	for i := range a.maxSeats() {
		k := strconv.Itoa(i)
		name, email := strings.TrimSpace(f.Get("name"+k)), strings.TrimSpace(f.Get("email"+k))
		if name == "" && email == "" {
			continue
		}
		req.Seats = append(req.Seats, service.Person{Name: name, Email: email, Lang: f.Get("lang" + k)})
	}
	out, err := a.svc.Create(r.Context(), req)
	if err != nil {
		e, status := a.classify(r, err)
		retryAfter(w, e)
		fail(status, e.Message(l))
		return
	}
	// Relative: the organiser stays on the origin they posted from,
	// whatever the configured public one (form-action 'self').
	http.Redirect(w, r, pageLink("/g/"+out.ID+"/org", out.OrganiserToken, l), http.StatusSeeOther)
}
