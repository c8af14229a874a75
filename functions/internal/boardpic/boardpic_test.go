package boardpic_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/boardpic"
	"github.com/pbmgames/pbm/functions/internal/present"
	businessmanview "github.com/pbmgames/pbm/functions/internal/present/businessman"
	westernview "github.com/pbmgames/pbm/functions/internal/present/western"
)

var update = flag.Bool("update", false, "regenerate the golden pictures in testdata/")

// The size limits the tests hold the pictures to; the targets are lower
// (60 KB and 30 KB).
const (
	maxPNG = 80 << 10
	maxSVG = 40 << 10
)

// names has Cyrillic, a long name to shorten and one with XML's special
// characters.
var names = []string{"Анна", "Борис Годунов", `Tom <"&"> O'Neil`, "Екатерина Великая-Длинноимённая", "Li", "Дмитрий"}

// midGame plays a seeded 6-seat bot game to the middle: holdings bought,
// tokens spread over the loop and the branches.
func midGame(t testing.TB) western.View {
	t.Helper()
	var seed [32]byte
	copy(seed[:], "boardpic mid-game")
	s, err := western.New(western.Options{Laps: 20}, 6, seed)
	if err != nil {
		t.Fatal(err)
	}
	for range 900 {
		if s.Over() {
			t.Fatal("the game ended early")
		}
		seat := s.Owing()[0]
		a, _ := s.Bot(seat)
		if _, err := engine.Play(s, seat, a, nil); err != nil {
			t.Fatalf("bot: %v", err)
		}
	}
	return s.View(engine.Spectator)
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to make it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (%d bytes, want %d); look at it and run with -update if the change is meant", name, len(got), len(want))
	}
}

// layoutOf is the board of the game whose view v is, as its presenter
// gives it to the pages and mails; nil (no picture) for any other.
func layoutOf(v any) boardpic.Layout {
	for _, p := range []present.Game{westernview.Presenter, businessmanview.Presenter} {
		l := present.Board(p)
		if _, err := l(v, nil, "ru"); !errors.Is(err, boardpic.ErrNoPicture) {
			return l
		}
	}
	return nil
}

func TestPNG(t *testing.T) {
	v := midGame(t)
	for _, lang := range []string{"ru", "en"} {
		t.Run(lang, func(t *testing.T) {
			b, err := layoutOf(v).PNG(v, names, lang)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("PNG %s: %d bytes", lang, len(b))
			if len(b) > maxPNG {
				t.Errorf("PNG is %d bytes, over %d", len(b), maxPNG)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if got := img.Bounds().Size(); got.X != westernview.Width || got.Y != westernview.Height {
				t.Errorf("PNG is %v, want %dx%d", got, westernview.Width, westernview.Height)
			}
			again, _ := layoutOf(v).PNG(v, names, lang)
			if !bytes.Equal(b, again) {
				t.Error("two drawings of one view differ")
			}
			golden(t, "board-"+lang+".png", b)
		})
	}
}

func TestSVG(t *testing.T) {
	v := midGame(t)
	for _, lang := range []string{"ru", "en"} {
		t.Run(lang, func(t *testing.T) {
			b, err := layoutOf(v).SVG(v, names, lang)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("SVG %s: %d bytes", lang, len(b))
			if len(b) > maxSVG {
				t.Errorf("SVG is %d bytes, over %d", len(b), maxSVG)
			}
			wellFormed(t, b)
			s := string(b)
			for _, want := range []string{`role="img"`, `aria-label="`, "<title>"} {
				if !strings.Contains(s, want) {
					t.Errorf("SVG lacks %s", want)
				}
			}
			for _, bad := range []string{"href", "url(", "<image", "<script"} {
				if strings.Contains(s, bad) {
					t.Errorf("SVG has %q: it must stand alone", bad)
				}
			}
			// Every name is there (the long one shortened to fit), escaped.
			for i, n := range names {
				if i == 3 {
					n = n[:len("Екатерина")]
				}
				if esc := escaped(n); !strings.Contains(s, esc) {
					t.Errorf("SVG lacks seat %d's name as %q", i, esc)
				}
			}
			if strings.Contains(s, `<"&">`) {
				t.Error("a name went into the SVG unescaped")
			}
			again, _ := layoutOf(v).SVG(v, names, lang)
			if !bytes.Equal(b, again) {
				t.Error("two drawings of one view differ")
			}
			golden(t, "board-"+lang+".svg", b)
		})
	}
}

func escaped(s string) string {
	var b bytes.Buffer
	boardpic.Esc(&b, s)
	return b.String()
}

// wellFormed decodes the whole document with encoding/xml and checks that
// the text it reads back holds the names as they are.
func wellFormed(t *testing.T, b []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		if c, ok := tok.(xml.CharData); ok {
			text.Write(c)
		}
	}
	if !strings.Contains(text.String(), names[2]) {
		t.Errorf("the SVG's text lacks %q", names[2])
	}
}

// TestViews draws the corner cases: a new game, a game over, two seats,
// names missing, everyone on one cell.
func TestViews(t *testing.T) {
	var seed [32]byte
	s, err := western.New(western.DefaultOptions(), 2, seed)
	if err != nil {
		t.Fatal(err)
	}
	start := s.View(engine.Spectator)
	crowd := midGame(t)
	for i := range crowd.Players {
		crowd.Players[i].Cell = 120
		crowd.Players[i].Bankrupt = i == 4
	}
	over := midGame(t)
	over.Phase = western.PhOver
	for name, v := range map[string]western.View{"start": start, "crowd": crowd, "over": over} {
		for _, n := range [][]string{nil, names} {
			if _, err := layoutOf(v).PNG(v, n, "ru"); err != nil {
				t.Errorf("%s: PNG: %v", name, err)
			}
			b, err := layoutOf(v).SVG(v, n, "en")
			if err != nil {
				t.Errorf("%s: SVG: %v", name, err)
			}
			wellFormedXML(t, b)
		}
	}
	bad := start
	bad.Players = append([]western.Player(nil), start.Players...)
	bad.Players[0].Cell = 0
	if _, err := layoutOf(bad).PNG(bad, nil, "ru"); err == nil {
		t.Error("a token on cell 0 was drawn")
	}
}

func wellFormedXML(t *testing.T, b []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
	}
}

func BenchmarkPNG(b *testing.B) {
	v := midGame(b)
	var n int
	b.ReportAllocs()
	for b.Loop() {
		p, err := layoutOf(v).PNG(v, names, "ru")
		if err != nil {
			b.Fatal(err)
		}
		n = len(p)
	}
	b.ReportMetric(float64(n), "bytes")
}

func BenchmarkSVG(b *testing.B) {
	v := midGame(b)
	var n int
	b.ReportAllocs()
	for b.Loop() {
		p, err := layoutOf(v).SVG(v, names, "ru")
		if err != nil {
			b.Fatal(err)
		}
		n = len(p)
	}
	b.ReportMetric(float64(n), "bytes")
}

// midBusiness plays a seeded 6-seat «Бизнесмен» bot game to the middle:
// lots bought, built on and pledged, tokens on the big perimeter.
func midBusiness(t testing.TB) businessman.View {
	t.Helper()
	var seed [32]byte
	copy(seed[:], "boardpic business 5")
	s, err := businessman.New(businessman.DefaultOptions(), 6, seed)
	if err != nil {
		t.Fatal(err)
	}
	for range 470 {
		if s.Over() {
			t.Fatal("the game ended early")
		}
		seat := s.Owing()[0]
		a, _ := s.Bot(seat)
		if _, err := engine.Play(s, seat, a, nil); err != nil {
			t.Fatalf("bot: %v", err)
		}
	}
	return s.View(engine.Spectator).(businessman.View)
}

// TestBusinessPictures draws «Бизнесмен» in the middle of a game: the
// same limits, determinism and golden files as «Вестерн»'s board.
func TestBusinessPictures(t *testing.T) {
	v := midBusiness(t)
	if len(v.Properties) < 10 {
		t.Fatalf("only %d lots owned: not a middle game", len(v.Properties))
	}
	for _, lang := range []string{"ru", "en"} {
		t.Run(lang, func(t *testing.T) {
			p, err := layoutOf(v).PNG(v, names, lang)
			if err != nil {
				t.Fatal(err)
			}
			s, err := layoutOf(v).SVG(v, names, lang)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("PNG %d bytes, SVG %d bytes", len(p), len(s))
			if len(p) > maxPNG || len(s) > maxSVG {
				t.Errorf("PNG %d bytes (limit %d), SVG %d bytes (limit %d)", len(p), maxPNG, len(s), maxSVG)
			}
			img, err := png.Decode(bytes.NewReader(p))
			if err != nil {
				t.Fatal(err)
			}
			if got := img.Bounds().Size(); got.X != businessmanview.BusinessWidth || got.Y != businessmanview.BusinessHeight {
				t.Errorf("PNG is %v, want %dx%d", got, businessmanview.BusinessWidth, businessmanview.BusinessHeight)
			}
			wellFormed(t, s)
			doc := string(s)
			for _, want := range []string{`role="img"`, "<title>", `viewBox="0 0 700 `} {
				if !strings.Contains(doc, want) {
					t.Errorf("SVG lacks %s", want)
				}
			}
			for _, bad := range []string{"href", "url(", "<image", "<script"} {
				if strings.Contains(doc, bad) {
					t.Errorf("SVG has %q: it must stand alone", bad)
				}
			}
			if strings.Contains(doc, `<"&">`) {
				t.Error("a name went into the SVG unescaped")
			}
			// Every cell of every track is drawn with its number.
			for n := 1; n < businessman.NumCells; n++ {
				if businessman.Board[n].RU == "" {
					continue
				}
				if !strings.Contains(doc, ">"+strconv.Itoa(n)+"</text>") {
					t.Errorf("cell %d is not numbered", n)
				}
			}
			p2, _ := layoutOf(v).PNG(v, names, lang)
			s2, _ := layoutOf(v).SVG(v, names, lang)
			if !bytes.Equal(p, p2) || !bytes.Equal(s, s2) {
				t.Error("two drawings of one view differ")
			}
			golden(t, "business-"+lang+".png", p)
			golden(t, "business-"+lang+".svg", s)
		})
	}
}

// TestBusinessViews draws the corner cases of «Бизнесмен»: a new game, a
// game over, two seats, everyone on one cell, the roulette being played,
// every lot owned with buildings and pledges, a hand in the view (never
// drawn), and refuses a token off the board.
func TestBusinessViews(t *testing.T) {
	var seed [32]byte
	s, err := businessman.New(businessman.DefaultOptions(), 2, seed)
	if err != nil {
		t.Fatal(err)
	}
	start := s.View(0).(businessman.View)
	if len(start.Hand) == 0 {
		t.Fatal("the seat's view has no hand")
	}
	crowd := midBusiness(t)
	crowd.Players = append([]businessman.PlayerView(nil), crowd.Players...)
	for i := range crowd.Players {
		crowd.Players[i].Cell = 45
		crowd.Players[i].Bankrupt = i == 4
	}
	over := midBusiness(t)
	over.Phase = businessman.PhOver
	roulette := midBusiness(t)
	roulette.Phase, roulette.Roulette = businessman.PhRoulette, businessman.RouletteIn+5
	full := midBusiness(t)
	full.Properties = nil
	for n := 1; n < businessman.NumCells; n++ {
		if k := businessman.Board[n].Kind; k == businessman.KLot || k == businessman.KSuper {
			full.Properties = append(full.Properties, businessman.PropertyView{Cell: n, Owner: n % 6, Level: n % 3, Pledged: n%5 == 0})
		}
	}
	for i := range full.Players {
		full.Players[i].Cell = []int{60, 63, 69, 41, 56, 40}[i]
	}
	for name, v := range map[string]businessman.View{"start": start, "crowd": crowd, "over": over, "roulette": roulette, "full": full} {
		for _, n := range [][]string{nil, names} {
			p, err := layoutOf(v).PNG(v, n, "ru")
			if err != nil {
				t.Errorf("%s: PNG: %v", name, err)
			}
			if len(p) > maxPNG {
				t.Errorf("%s: PNG %d bytes", name, len(p))
			}
			b, err := layoutOf(v).SVG(v, n, "en")
			if err != nil {
				t.Errorf("%s: SVG: %v", name, err)
			}
			if len(b) > maxSVG {
				t.Errorf("%s: SVG %d bytes", name, len(b))
			}
			wellFormedXML(t, b)
			for _, c := range v.Hand { // a hand is the reader's: never on the board
				if strings.Contains(string(b), c.Code) {
					t.Errorf("%s: the board shows exchange card %s", name, c.Code)
				}
			}
		}
	}
	bad := start
	bad.Players = append([]businessman.PlayerView(nil), start.Players...)
	bad.Players[0].Cell = 57
	if _, err := layoutOf(bad).PNG(bad, nil, "ru"); err == nil {
		t.Error("a token on cell 57 was drawn")
	}
	for _, l := range []boardpic.Layout{nil, present.Board(westernview.Presenter), present.Board(businessmanview.Presenter)} {
		if _, err := l.SVG(struct{}{}, nil, "ru"); !errors.Is(err, boardpic.ErrNoPicture) {
			t.Errorf("a view of no game: %v", err)
		}
	}
}
