package httpgzip

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// page is a text body well over MinSize that gzip shrinks.
var page = "<!doctype html><html><body>" + strings.Repeat("<p>Ход игрока: покупка акций.</p>\n", 100) + "</body></html>"

func gunzip(t *testing.T, b []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	return string(out)
}

func TestAccepts(t *testing.T) {
	for _, c := range []struct {
		header []string
		want   bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{"gzip"}, true},
		{[]string{"GZIP"}, true},
		{[]string{"x-gzip"}, true},
		{[]string{"gzip, deflate, br, zstd"}, true}, // Chromium
		{[]string{"deflate, br"}, false},
		{[]string{"identity"}, false},
		{[]string{"br;q=1.0, gzip;q=0.8, *;q=0.1"}, true},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip; q=0.000"}, false},
		{[]string{"gzip;q=0.001"}, true},
		{[]string{"*"}, true},
		{[]string{"*;q=0"}, false},
		{[]string{"gzip;q=0, *"}, false}, // refused by name
		{[]string{"*, gzip;q=0"}, false},
		{[]string{"gzip;q=oops"}, false},
		{[]string{"gzip;q=2"}, false},
		{[]string{"br", "gzip"}, true}, // the header sent twice
		{[]string{"gzipped"}, false},
	} {
		if got := Accepts(c.header); got != c.want {
			t.Errorf("Accepts(%q) = %v, want %v", c.header, got, c.want)
		}
	}
}

func TestCompressible(t *testing.T) {
	for ct, want := range map[string]bool{
		"text/html; charset=utf-8":        true,
		"text/plain":                      true,
		"text/css":                        true,
		"text/javascript":                 true,
		"application/javascript":          true,
		"application/json":                true,
		"application/json; charset=utf-8": true,
		"application/problem+json":        true,
		"image/svg+xml":                   true,
		"application/xml":                 true,
		"image/png":                       false,
		"image/gif":                       false,
		"application/octet-stream":        false,
		"application/gzip":                false,
		"":                                false,
		"not a type;;":                    false,
	} {
		if got := Compressible(ct); got != want {
			t.Errorf("Compressible(%q) = %v, want %v", ct, got, want)
		}
	}
}

// TestHandler: what reaches the client for each kind of request and
// answer.
func TestHandler(t *testing.T) {
	type answer struct {
		status int
		header map[string]string
		body   string
	}
	serve := func(a answer) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for k, v := range a.header {
				w.Header().Set(k, v)
			}
			if a.status != 0 {
				w.WriteHeader(a.status)
			}
			if a.body != "" {
				// In pieces, as templates write.
				for i := 0; i < len(a.body); i += 700 {
					_, _ = io.WriteString(w, a.body[i:min(i+700, len(a.body))])
				}
			}
		})
	}
	html := map[string]string{"Content-Type": "text/html; charset=utf-8"}
	small := strings.Repeat("x", MinSize-1)
	for _, c := range []struct {
		name           string
		method, accept string
		answer         answer
		gzipped, vary  bool
		etag           string // the ETag the client gets, if any
	}{
		{name: "page, gzip accepted", accept: "gzip, deflate, br", answer: answer{200, html, page}, gzipped: true, vary: true},
		{name: "page, nothing accepted", answer: answer{200, html, page}, vary: true},
		{name: "page, gzip refused", accept: "gzip;q=0, deflate", answer: answer{200, html, page}, vary: true},
		{name: "page, only br", accept: "br", answer: answer{200, html, page}, vary: true},
		{name: "page, any coding", accept: "*", answer: answer{200, html, page}, gzipped: true, vary: true},
		{name: "HEAD", method: http.MethodHead, accept: "gzip", answer: answer{200, html, page}, vary: true},
		{name: "under the threshold", accept: "gzip", answer: answer{200, map[string]string{"Content-Type": "text/plain"}, small}, vary: true},
		{name: "at the threshold", accept: "gzip", answer: answer{200, map[string]string{"Content-Type": "text/plain"}, small + "x"}, gzipped: true, vary: true},
		{name: "JSON", accept: "gzip", answer: answer{200, map[string]string{"Content-Type": "application/json"}, `{"log":[` + strings.Repeat(`"roll",`, 300) + `"end"]}`}, gzipped: true, vary: true},
		{name: "SVG", accept: "gzip", answer: answer{200, map[string]string{"Content-Type": "image/svg+xml"}, "<svg>" + strings.Repeat(`<rect width="1"/>`, 100) + "</svg>"}, gzipped: true, vary: true},
		{name: "an error page", accept: "gzip", answer: answer{404, html, page}, gzipped: true, vary: true},
		{name: "no type set: sniffed from the page", accept: "gzip", answer: answer{200, nil, page}, gzipped: true, vary: true},
		{name: "PNG", accept: "gzip", answer: answer{200, map[string]string{"Content-Type": "image/png"}, strings.Repeat("\x89PNG", 500)}},
		{name: "encoded already", accept: "gzip", answer: answer{200, map[string]string{"Content-Type": "text/html", "Content-Encoding": "br"}, page}},
		{name: "a range", accept: "gzip", answer: answer{206, map[string]string{"Content-Type": "text/plain", "Content-Range": "bytes 0-2047/9999"}, page}},
		{name: "204", accept: "gzip", answer: answer{204, html, ""}},
		{name: "304", accept: "gzip", answer: answer{304, map[string]string{"ETag": `"v1"`}, ""}, etag: `"v1"`},
		{name: "strong ETag weakened", accept: "gzip", answer: answer{200, map[string]string{"Content-Type": "text/html", "ETag": `"v1"`}, page}, gzipped: true, vary: true, etag: `W/"v1"`},
		{name: "weak ETag kept", accept: "gzip", answer: answer{200, map[string]string{"Content-Type": "text/html", "ETag": `W/"v1"`}, page}, gzipped: true, vary: true, etag: `W/"v1"`},
		{name: "ETag, not compressed", answer: answer{200, map[string]string{"Content-Type": "text/html", "ETag": `"v1"`}, page}, vary: true, etag: `"v1"`},
		{name: "Vary kept", accept: "gzip", answer: answer{200, map[string]string{"Content-Type": "text/html", "Vary": "Accept-Language"}, page}, gzipped: true, vary: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			method := c.method
			if method == "" {
				method = http.MethodGet
			}
			r := httptest.NewRequest(method, "/", nil)
			if c.accept != "" {
				r.Header.Set("Accept-Encoding", c.accept)
			}
			rec := httptest.NewRecorder()
			Handler(serve(c.answer)).ServeHTTP(rec, r)
			res := rec.Result()
			status := c.answer.status
			if status == 0 {
				status = 200
			}
			if res.StatusCode != status {
				t.Errorf("status %d, want %d", res.StatusCode, status)
			}
			body := rec.Body.Bytes()
			if got := res.Header.Get("Content-Encoding") == "gzip"; got != c.gzipped {
				t.Errorf("Content-Encoding %q, want gzip %v", res.Header.Get("Content-Encoding"), c.gzipped)
			}
			if c.gzipped {
				if got := gunzip(t, body); got != c.answer.body {
					t.Errorf("gunzipped body differs: %d bytes, want %d", len(got), len(c.answer.body))
				}
				if cl := res.Header.Get("Content-Length"); cl != strconv.Itoa(len(body)) {
					t.Errorf("Content-Length %q, the body has %d bytes", cl, len(body))
				}
				if len(body) >= len(c.answer.body) {
					t.Errorf("compressed to %d bytes from %d", len(body), len(c.answer.body))
				}
				if ct := res.Header.Get("Content-Type"); !Compressible(ct) {
					t.Errorf("Content-Type %q: the content's type is lost", ct)
				}
			} else if string(body) != c.answer.body && method != http.MethodHead {
				t.Errorf("the body changed: %d bytes, want the %d written", len(body), len(c.answer.body))
			}
			vary := strings.Join(res.Header.Values("Vary"), ", ")
			if got := strings.Contains(vary, "Accept-Encoding"); got != c.vary {
				t.Errorf("Vary %q, want Accept-Encoding %v", vary, c.vary)
			}
			if v := c.answer.header["Vary"]; v != "" && !strings.Contains(vary, v) {
				t.Errorf("Vary %q: the handler's %q is lost", vary, v)
			}
			if got := res.Header.Get("ETag"); got != c.etag {
				t.Errorf("ETag %q, want %q", got, c.etag)
			}
		})
	}
}

// TestHandlerThroughServer: a real client and server agree on the
// compressed answer: Go's transport asks for gzip, gets it and unpacks it.
func TestHandlerThroughServer(t *testing.T) {
	srv := httptest.NewServer(Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, page)
	})))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Uncompressed || string(b) != page {
		t.Errorf("uncompressed by the transport %v, %d bytes; want true and the %d of the page", resp.Uncompressed, len(b), len(page))
	}
}

func BenchmarkHandler(b *testing.B) {
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, page)
	}))
	for _, accept := range []string{"", "gzip"} {
		b.Run("accept="+accept, func(b *testing.B) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			if accept != "" {
				r.Header.Set("Accept-Encoding", accept)
			}
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			for b.Loop() {
				h.ServeHTTP(httptest.NewRecorder(), r)
			}
		})
	}
}
