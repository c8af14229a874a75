package httpgzip

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestSpliced: the gzip Spliced makes of two pieces and the bytes
// between them reads back, with compress/gzip (which checks its CRC and
// size), as the three texts one after another — for texts that repeat
// across the pieces, empty ones, and a middle of a stored block's
// largest size; a longer middle is refused.
func TestSpliced(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	text := func(n int) []byte {
		words := []string{"<td>", "</td>", "партия ", "game ", "\n", "class=\"opts\" ", "0", "1"}
		var b bytes.Buffer
		for b.Len() < n {
			b.WriteString(words[rnd.IntN(len(words))])
		}
		return b.Bytes()[:n]
	}
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rnd.Uint32())
		}
		return b
	}
	for _, c := range []struct {
		name                  string
		before, middle, after []byte
	}{
		{"page", text(9000), []byte("AbCdEfGhIjKlMnOpQrStUvWxYz0"), text(8000)},
		{"same text both sides", bytes.Repeat([]byte("abc"), 3000), []byte("key"), bytes.Repeat([]byte("abc"), 3000)},
		{"empty middle", text(100), nil, text(100)},
		{"empty before and after", nil, []byte("key"), nil},
		{"random", random(70000), random(100), random(5000)},
		{"largest middle", text(10), random(0xffff), text(10)},
	} {
		head, tail, err := DeflateHalves(c.before, c.after)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		gz, err := Spliced(head, tail, c.before, c.middle, c.after)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		zr.Multistream(false)
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if want := bytes.Join([][]byte{c.before, c.middle, c.after}, nil); !bytes.Equal(got, want) {
			t.Errorf("%s: reads back %d bytes, want the %d of the texts", c.name, len(got), len(want))
		}
	}
	if _, err := Spliced(nil, nil, nil, make([]byte, 0x10000), nil); err == nil {
		t.Error("a middle longer than a stored block was spliced")
	}
}

// TestWriteGzipped: an answer written gzipped ahead of time passes
// through Handler as it is, with Content-Encoding, its length and Vary
// once.
func TestWriteGzipped(t *testing.T) {
	page := []byte(strings.Repeat("<p>hello</p>", 200))
	head, tail, err := DeflateHalves(page[:1000], page[1010:])
	if err != nil {
		t.Fatal(err)
	}
	gz, err := Spliced(head, tail, page[:1000], page[1000:1010], page[1010:])
	if err != nil {
		t.Fatal(err)
	}
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !Wants(r) {
			t.Error("a GET that accepts gzip is not wanted gzipped")
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		WriteGzipped(w, http.StatusOK, gz)
	}))
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("Accept-Encoding", "gzip, br")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if !bytes.Equal(w.Body.Bytes(), gz) {
		t.Errorf("the body is not the gzip written (%d bytes, want %d)", w.Body.Len(), len(gz))
	}
	if got := w.Header(); got.Get("Content-Encoding") != "gzip" || got.Get("Content-Length") != fmt.Sprint(len(gz)) || len(got.Values("Vary")) != 1 || got.Get("Vary") != "Accept-Encoding" {
		t.Errorf("headers %v", got)
	}
	for _, r := range []*http.Request{httptest.NewRequest(http.MethodHead, "/", nil), httptest.NewRequest(http.MethodGet, "/", nil)} {
		r.Header.Set("Accept-Encoding", "gzip")
		if r.Method == http.MethodGet {
			r.Header.Set("Accept-Encoding", "gzip;q=0, identity")
		}
		if Wants(r) {
			t.Errorf("%s %v: wanted gzipped", r.Method, r.Header)
		}
	}
}
