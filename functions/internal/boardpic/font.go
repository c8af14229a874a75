package boardpic

import (
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The Go fonts cover Latin, Greek and Cyrillic, so seats' names in any of
// them are drawn; other characters fall back to the font's missing glyph.
var fonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	var f [2]*opentype.Font
	var err error
	if f[0], err = opentype.Parse(goregular.TTF); err != nil {
		return f, err
	}
	f[1], err = opentype.Parse(gobold.TTF)
	return f, err
})

type faceKey struct {
	size float64
	bold bool
}

// measurer holds the faces of one drawing: opentype faces are not safe for
// concurrent use, so each call of PNG or SVG has its own.
type measurer struct {
	fonts [2]*opentype.Font
	faces map[faceKey]font.Face
}

func newMeasurer() (*measurer, error) {
	f, err := fonts()
	if err != nil {
		return nil, err
	}
	return &measurer{fonts: f, faces: map[faceKey]font.Face{}}, nil
}

func (m *measurer) face(size float64, bold bool) font.Face {
	k := faceKey{size, bold}
	if f, ok := m.faces[k]; ok {
		return f
	}
	i := 0
	if bold {
		i = 1
	}
	f, err := opentype.NewFace(m.fonts[i], &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil { // only for a bad size, which the package never asks for
		panic(err)
	}
	m.faces[k] = f
	return f
}

// width is the advance of s in pixels.
func (m *measurer) width(s string, size float64, bold bool) float64 {
	return fix(font.MeasureString(m.face(size, bold), s))
}

// fit shortens s with an ellipsis to at most w pixels.
func (m *measurer) fit(s string, size float64, bold bool, w float64) string {
	if m.width(s, size, bold) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 {
		r = r[:len(r)-1]
		t := strings.TrimRight(string(r), " ") + "…"
		if m.width(t, size, bold) <= w {
			return t
		}
	}
	return "…"
}

func fix(v fixed.Int26_6) float64 { return float64(v) / 64 }
