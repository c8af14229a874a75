package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/infra/httpgzip"
	"github.com/pbmgames/pbm/infra/lambdahttp"
	"github.com/pbmgames/pbm/infra/linksign"
)

// lambdaGet serves a GET as the api function does: an API Gateway HTTP
// API event through package lambdahttp; acceptEncoding is the browser's
// Accept-Encoding ("" for none). It returns the response and its body as
// the client gets it from API Gateway (base64 decoded).
func lambdaGet(t *testing.T, h http.Handler, path string, q url.Values, acceptEncoding string) (events.APIGatewayV2HTTPResponse, []byte) {
	t.Helper()
	ev := events.APIGatewayV2HTTPRequest{Version: "2.0", RouteKey: "$default", RawPath: path, RawQueryString: q.Encode(),
		Headers: map[string]string{"host": "pbm.test", "accept": "text/html", "accept-language": "ru"}}
	if acceptEncoding != "" {
		ev.Headers["accept-encoding"] = acceptEncoding
	}
	ev.RequestContext.HTTP.Method, ev.RequestContext.HTTP.Path, ev.RequestContext.HTTP.SourceIP = "GET", path, "203.0.113.7"
	resp, err := lambdahttp.Serve(context.Background(), h, ev)
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(resp.Body)
	if resp.IsBase64Encoded {
		if body, err = base64.StdEncoding.DecodeString(resp.Body); err != nil {
			t.Fatalf("%s: the body is not base64: %v", path, err)
		}
	}
	return resp, body
}

// TestPagesCompressed (issue 16): the largest pages — the rules, a 6-seat
// game's page for the seat to move, its log, its game-over page with the
// chart — reach API Gateway gzipped when the browser accepts it: base64
// that decodes to a gzip of exactly the page served to a browser that
// does not, at most half its size (30% for the game's pages).
func TestPagesCompressed(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two 6-seat games to the end")
	}
	f := newPageFixture(t)
	clock := func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }
	h := httpapi.New(httpapi.Deps{Games: testGames, Service: f.svc, Log: slog.New(slog.DiscardHandler), Now: clock})
	var raw, packed int
	var largest []byte
	// most is the largest share of a page its gzip may weigh: prose
	// (the rules) packs less than the markup of a game's page.
	check := func(name, path string, q url.Values, most float64) {
		t.Helper()
		plain, page := lambdaGet(t, h, path, q, "")
		if plain.StatusCode != http.StatusOK || plain.IsBase64Encoded || plain.Headers["Content-Encoding"] != "" {
			t.Fatalf("%s without Accept-Encoding: %d, base64 %v, coding %q", name, plain.StatusCode, plain.IsBase64Encoded, plain.Headers["Content-Encoding"])
		}
		resp, gz := lambdaGet(t, h, path, q, "gzip, deflate, br, zstd")
		if resp.StatusCode != http.StatusOK || !resp.IsBase64Encoded || resp.Headers["Content-Encoding"] != "gzip" || resp.Headers["Vary"] != "Accept-Encoding" {
			t.Fatalf("%s gzipped: %d, base64 %v, coding %q, Vary %q", name, resp.StatusCode, resp.IsBase64Encoded, resp.Headers["Content-Encoding"], resp.Headers["Vary"])
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatalf("%s: not gzip: %v", name, err)
		}
		unpacked, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(unpacked, page) {
			t.Errorf("%s: gunzipped %d bytes (%v), the page has %d", name, len(unpacked), err, len(page))
		}
		if float64(len(gz)) > most*float64(len(page)) {
			t.Errorf("%s: %d bytes gzipped from %d: over %.0f%%", name, len(gz), len(page), 100*most)
		}
		raw, packed = raw+len(page), packed+len(gz)
		if len(page) > len(largest) {
			largest = page
		}
		t.Logf("%-40s %6d bytes, gzipped %5d (%4.1f%%)", name, len(page), len(gz), 100*float64(len(gz))/float64(len(page)))
	}
	for _, info := range testGames.Engines().List() {
		kind := info.Kind
		check(kind+": rules", "/rules/"+kind, url.Values{"lang": {"ru"}}, 0.5)
		c := f.createKind(kind, map[string]any{"laps": 12}, 6, 6)
		f.playUntil(c.ID, func(_ engine.Game, moves int) bool { return moves >= 200 })
		rec, g := f.game(c.ID)
		mover := invite(rec, g.Owing()[0])
		seat := url.Values{"t": {f.token(linksign.PurposeSeat, c.ID, mover)}, "lang": {"ru"}}
		check(kind+": seat to move, move 200", "/g/"+c.ID, seat, 0.3)
		check(kind+": log", "/g/"+c.ID+"/log", seat, 0.3)
		f.playUntil(c.ID, func(engine.Game, int) bool { return false })
		check(kind+": game over, 12 laps", "/g/"+c.ID, seat, 0.3)
		check(kind+": game over, log", "/g/"+c.ID+"/log", seat, 0.3)
	}
	t.Logf("all: %d bytes, gzipped %d (%.1f%%)", raw, packed, 100*float64(packed)/float64(raw))

	// What compressing costs the function: the largest page written as it
	// was rendered, through httpgzip, with and without gzip accepted.
	page := httpgzip.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(largest)
	}))
	serve := func(accept string) testing.BenchmarkResult {
		return testing.Benchmark(func(b *testing.B) {
			r, _ := http.NewRequest(http.MethodGet, "/", nil)
			if accept != "" {
				r.Header.Set("Accept-Encoding", accept)
			}
			for b.Loop() {
				page.ServeHTTP(lambdahttp.NewResponseWriter(), r)
			}
		})
	}
	plain, gz := serve(""), serve("gzip")
	t.Logf("the largest page (%d bytes) through httpgzip: %v a page not compressed, %v gzipped (%d allocations, %d bytes a page)",
		len(largest), time.Duration(plain.NsPerOp()), time.Duration(gz.NsPerOp()), gz.AllocsPerOp(), gz.AllocedBytesPerOp())
}

// TestHomePageGzippedAheadOfTime (issue 24): the blank home page, served
// from its pre-rendered halves, reaches API Gateway through the whole
// handler as every compressed page does — base64 of a gzip of exactly
// the page a browser that takes no gzip gets (but for the form's fresh
// key), with Content-Encoding, Vary once and the same other headers —
// in both languages, each answer with a key of its own; the gzip is
// the one spliced from the pieces (its key stored as it is).
func TestHomePageGzippedAheadOfTime(t *testing.T) {
	f := newPageFixture(t)
	h := httpapi.New(httpapi.Deps{Games: testGames, Service: f.svc, Log: slog.New(slog.DiscardHandler)})
	key := regexp.MustCompile(`name="key" value="([A-Za-z0-9_-]{27})"`)
	keyOf := func(page []byte) string {
		m := key.FindSubmatch(page)
		if m == nil {
			t.Fatalf("no form key in the home page:\n%.300s", page)
		}
		return string(m[1])
	}
	for _, lang := range []string{"ru", "en"} {
		q := url.Values{"lang": {lang}}
		plain, page := lambdaGet(t, h, "/", q, "")
		if plain.StatusCode != http.StatusOK || plain.Headers["Content-Encoding"] != "" || plain.Headers["Vary"] != "Accept-Encoding" {
			t.Fatalf("%s without Accept-Encoding: %d, coding %q, Vary %q", lang, plain.StatusCode, plain.Headers["Content-Encoding"], plain.Headers["Vary"])
		}
		resp, gz := lambdaGet(t, h, "/", q, "gzip, deflate, br, zstd")
		if resp.StatusCode != http.StatusOK || !resp.IsBase64Encoded || resp.Headers["Content-Encoding"] != "gzip" || resp.Headers["Vary"] != "Accept-Encoding" {
			t.Fatalf("%s gzipped: %d, base64 %v, coding %q, Vary %q", lang, resp.StatusCode, resp.IsBase64Encoded, resp.Headers["Content-Encoding"], resp.Headers["Vary"])
		}
		if got := resp.Headers["Content-Length"]; got != "" && got != fmt.Sprint(len(gz)) {
			t.Errorf("%s: Content-Length %s of a %d-byte gzip", lang, got, len(gz))
		}
		for k, v := range plain.Headers {
			if k != "Content-Length" && k != "Content-Encoding" && k != "X-Request-Id" && resp.Headers[k] != v {
				t.Errorf("%s: %s is %q gzipped, %q not", lang, k, resp.Headers[k], v)
			}
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatalf("%s: not gzip: %v", lang, err)
		}
		zr.Multistream(false)
		unpacked, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		k1, k2 := keyOf(page), keyOf(unpacked)
		if k1 == k2 {
			t.Errorf("%s: two answers with the same form key %s", lang, k1)
		}
		if want := bytes.Replace(page, []byte(k1), []byte(k2), 1); !bytes.Equal(unpacked, want) {
			t.Errorf("%s: the gzipped home page (%d bytes) is not the plain one (%d) with its own key", lang, len(unpacked), len(page))
		}
		// The key stands in the gzip as it is, in its stored block: the
		// answer was spliced from the pieces, not compressed whole.
		if !bytes.Contains(gz, []byte(k2)) {
			t.Errorf("%s: the gzip does not hold its key stored: not the pieces compressed ahead of time", lang)
		}
		if !bytes.Contains(page, []byte(`<html lang="`+lang+`"`)) {
			t.Errorf("%s: the page is not in its language", lang)
		}
	}
}
