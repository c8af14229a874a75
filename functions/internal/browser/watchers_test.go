package browser

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// TestWatchersSeeWhatTheyLookFor: on a page made to fail them, the
// network watcher sees a request to another origin and the page's
// weight, and axe-core reports a critical violation; so their silence on
// the game's pages means something.
func TestWatchersSeeWhatTheyLookFor(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/gif")
		_, _ = w.Write([]byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"))
	}))
	defer other.Close()
	padding := strings.Repeat("x", maxPageBytes)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><html lang="en"><head><title>bad</title></head><body><main>
<h1>A bad page</h1><button></button><img src="` + other.URL + `/pixel.gif" alt="">
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt=""><!--` + padding + `--></main></body></html>`))
	}))
	defer page.Close()

	b := newBrowser(t, page.URL)
	b.open("bad", page.URL+"/")
	p := b.pages[0]
	if want := other.URL + "/pixel.gif"; !slices.Contains(p.Outside, want) || len(p.Outside) != 1 {
		t.Errorf("requests outside the service: %v, want just %s", p.Outside, want)
	}
	if p.Bytes <= maxPageBytes {
		t.Errorf("the page weighs %d bytes, but its document alone is over %d", p.Bytes, maxPageBytes)
	}
	r := b.axe("bad")
	if !slices.ContainsFunc(r.grave(), func(v axeViolation) bool { return v.ID == "button-name" }) {
		t.Errorf("axe-core did not report the button without a name: %v", r.Violations)
	}
}
