package httpapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/catalog"
	"github.com/pbmgames/pbm/infra/httpgzip"
	"github.com/pbmgames/pbm/templates"
)

var updateHome = flag.Bool("update", false, "write the pre-rendered home pages (prerendered/) anew")

// homeAPI is an api serving the catalog's games, whose home pages are
// the pre-rendered ones.
var homeAPI = &api{games: catalog.Games(), prerendered: prerenderedFor(catalog.Games().Kinds())}

// renderedHome is the blank home page rendered for r now, with key.
func renderedHome(t *testing.T, r *http.Request, key string) []byte {
	t.Helper()
	d := homeAPI.homeForm(r, "", nil)
	d.Key = key
	var buf bytes.Buffer
	if err := templates.Render(&buf, "home.html", d); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestHomePrerendered: the pre-rendered home pages (prerendered/) are
// the blank home page as rendered now, in each language, with the key's
// hole; with -update it writes them, and the DEFLATE pieces of their
// halves (TestHomeFromPrerendered checks that those read back as the
// page: their bytes are compress/flate's, which a Go release may
// change).
func TestHomePrerendered(t *testing.T) {
	kinds := strings.Join(catalog.Games().Kinds(), ",")
	if *updateHome {
		if err := os.WriteFile(filepath.Join("prerendered", "kinds.txt"), []byte(kinds+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if !homeAPI.prerendered {
		t.Errorf("prerendered/kinds.txt is not the catalog's %s: run go generate ./functions/internal/httpapi", kinds)
	}
	for l, files := range homeFiles {
		file := files[0]
		page := renderedHome(t, httptest.NewRequest(http.MethodGet, "/?lang="+l, nil), homeKeyHole)
		if n := bytes.Count(page, []byte(homeKeyHole)); n != 1 {
			t.Fatalf("%s: the key's hole is %d times in the page, want once", l, n)
		}
		name := filepath.Join("prerendered", "home."+l+".html")
		if *updateHome {
			before, after, _ := bytes.Cut(page, []byte(homeKeyHole))
			head, tail, err := httpgzip.DeflateHalves(before, after)
			if err != nil {
				t.Fatal(err)
			}
			for name, data := range map[string][]byte{name: page, strings.TrimSuffix(name, "html") + "1.deflate": head, strings.TrimSuffix(name, "html") + "2.deflate": tail} {
				if err := os.WriteFile(name, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		if !bytes.Equal(file, page) {
			t.Errorf("%s differs from the home page rendered now: run go generate ./functions/internal/httpapi", name)
		}
	}
}

// TestHomeFromPrerendered: every request the pre-rendered home page
// answers gets the page that rendering it would give, with its fresh
// key, gzipped (as a whole gzip, its CRC and size right) when it accepts
// gzip; the requests whose page differs are rendered.
func TestHomeFromPrerendered(t *testing.T) {
	req := func(method, target string, header ...string) *http.Request {
		r := httptest.NewRequest(method, target, nil)
		for i := 0; i+1 < len(header); i += 2 {
			r.Header.Set(header[i], header[i+1])
		}
		return r
	}
	for _, r := range []*http.Request{
		req(http.MethodGet, "/"),
		req(http.MethodGet, "/?lang=en"),
		req(http.MethodGet, "/?lang=ru"),
		req(http.MethodGet, "/", "Accept-Language", "en-GB,en;q=0.9,ru;q=0.5"),
		req(http.MethodGet, "/?lang=fr", "Accept-Language", "en"),
		req(http.MethodGet, "/?lang=en&lang=ru"),
		req(http.MethodGet, "/?lang=%zz"),
		req(http.MethodHead, "/?lang=en"),
		req(http.MethodGet, "/", "Accept-Encoding", "gzip, deflate, br, zstd"),
		req(http.MethodGet, "/?lang=en", "Accept-Encoding", "gzip"),
		req(http.MethodHead, "/", "Accept-Encoding", "gzip"),
	} {
		h, ok := homeAPI.prerenderedHome(r)
		if !ok {
			t.Errorf("%s %s (%v): rendered, want pre-rendered", r.Method, r.URL, r.Header)
			continue
		}
		key := newFormKey()
		w := httptest.NewRecorder()
		h.write(w, r, key)
		body := w.Body.Bytes()
		if gzipped := w.Header().Get("Content-Encoding") == "gzip"; gzipped != httpgzip.Wants(r) {
			t.Errorf("%s %s (%v): gzipped %v", r.Method, r.URL, r.Header, gzipped)
		} else if gzipped {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err == nil {
				zr.Multistream(false)
				body, err = io.ReadAll(zr)
			}
			if err != nil {
				t.Fatalf("%s %s (%v): the gzip does not read: %v", r.Method, r.URL, r.Header, err)
			}
			if got := w.Header().Get("Content-Length"); got != strconv.Itoa(w.Body.Len()) {
				t.Errorf("Content-Length %s of %d bytes", got, w.Body.Len())
			}
		}
		if want := renderedHome(t, r, key); !bytes.Equal(body, want) {
			t.Errorf("%s %s (%v): the pre-rendered page differs from the rendered one", r.Method, r.URL, r.Header)
		}
		if ct := w.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" || w.Code != http.StatusOK {
			t.Errorf("%s %s: %d %q", r.Method, r.URL, w.Code, ct)
		}
	}
	mailbox := req(http.MethodGet, "/")
	mailbox = mailbox.WithContext(context.WithValue(mailbox.Context(), mailboxKey, "/mailbox"))
	for _, r := range []*http.Request{req(http.MethodGet, "/?lang=en&kind=western"), req(http.MethodGet, "/?x"), req(http.MethodGet, "/g/x"), mailbox} {
		if _, ok := homeAPI.prerenderedHome(r); ok {
			t.Errorf("%s: pre-rendered, whose page differs", r.URL)
		}
	}
}
