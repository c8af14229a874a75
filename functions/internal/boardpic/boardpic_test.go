package boardpic

import (
	"bytes"
	"encoding/xml"
	"flag"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/western"
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
		if _, err := s.Play(seat, a, nil); err != nil {
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

func TestPNG(t *testing.T) {
	v := midGame(t)
	for _, lang := range []string{"ru", "en"} {
		t.Run(lang, func(t *testing.T) {
			b, err := PNG(v, names, lang)
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
			if got := img.Bounds().Size(); got.X != Width || got.Y != Height {
				t.Errorf("PNG is %v, want %dx%d", got, Width, Height)
			}
			again, _ := PNG(v, names, lang)
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
			b, err := SVG(v, names, lang)
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
			again, _ := SVG(v, names, lang)
			if !bytes.Equal(b, again) {
				t.Error("two drawings of one view differ")
			}
			golden(t, "board-"+lang+".svg", b)
		})
	}
}

func escaped(s string) string {
	var b bytes.Buffer
	esc(&b, s)
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
			if _, err := PNG(v, n, "ru"); err != nil {
				t.Errorf("%s: PNG: %v", name, err)
			}
			b, err := SVG(v, n, "en")
			if err != nil {
				t.Errorf("%s: SVG: %v", name, err)
			}
			wellFormedXML(t, b)
		}
	}
	bad := start
	bad.Players = append([]western.Player(nil), start.Players...)
	bad.Players[0].Cell = 0
	if _, err := PNG(bad, nil, "ru"); err == nil {
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
		p, err := PNG(v, names, "ru")
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
		p, err := SVG(v, names, "ru")
		if err != nil {
			b.Fatal(err)
		}
		n = len(p)
	}
	b.ReportMetric(float64(n), "bytes")
}
