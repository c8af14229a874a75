package lambdahttp

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/infra/httpgzip"
)

// TestEncodedBodyAsBase64: a body with a Content-Encoding is bytes, sent
// as base64 even when its media type is text and its bytes happen to be
// valid UTF-8.
func TestEncodedBodyAsBase64(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "br")
		_, _ = io.WriteString(w, "ascii bytes")
	})
	got, err := Serve(context.Background(), h, event("GET", "/x", ""))
	if err != nil {
		t.Fatal(err)
	}
	if !got.IsBase64Encoded || got.Body != base64.StdEncoding.EncodeToString([]byte("ascii bytes")) {
		t.Errorf("body %q, base64 %v: want the bytes as base64", got.Body, got.IsBase64Encoded)
	}
}

// TestGzippedPage: a page compressed by package httpgzip for a client
// that accepts gzip reaches API Gateway as base64 that decodes to the
// gzip of the page, with its coding, length, type and Vary; a client that
// does not accept gzip gets the page as text.
func TestGzippedPage(t *testing.T) {
	page := "<!doctype html><title>Игра</title>" + strings.Repeat("<p>Ваш ход, Анна.</p>", 200)
	h := httpgzip.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, page)
	}))

	ev := event("GET", "/g/AB12", "t=x")
	ev.Headers["accept-encoding"] = "gzip, deflate, br"
	got, err := Serve(context.Background(), h, ev)
	if err != nil {
		t.Fatal(err)
	}
	if !got.IsBase64Encoded {
		t.Fatalf("a gzipped body as text: %.40q", got.Body)
	}
	raw, err := base64.StdEncoding.DecodeString(got.Body)
	if err != nil {
		t.Fatalf("not base64: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	unpacked, err := io.ReadAll(zr)
	if err != nil || string(unpacked) != page {
		t.Errorf("gunzipped: %d bytes (%v), want the page's %d", len(unpacked), err, len(page))
	}
	want := map[string]string{"Content-Encoding": "gzip", "Content-Type": "text/html; charset=utf-8", "Vary": "Accept-Encoding"}
	for k, v := range want {
		if got.Headers[k] != v {
			t.Errorf("%s: %q, want %q", k, got.Headers[k], v)
		}
	}
	if cl := got.Headers["Content-Length"]; cl != strconv.Itoa(len(raw)) {
		t.Errorf("Content-Length %q, the body has %d bytes", cl, len(raw))
	}
	t.Logf("a %d-byte page: %d bytes of gzip, %d of base64 in the event", len(page), len(raw), len(got.Body))

	delete(ev.Headers, "accept-encoding")
	got, err = Serve(context.Background(), h, ev)
	if err != nil {
		t.Fatal(err)
	}
	if got.IsBase64Encoded || got.Body != page || got.Headers["Content-Encoding"] != "" || got.Headers["Vary"] != "Accept-Encoding" {
		t.Errorf("without Accept-Encoding: base64 %v, coding %q, Vary %q, %d bytes; want the page as text, Vary Accept-Encoding",
			got.IsBase64Encoded, got.Headers["Content-Encoding"], got.Headers["Vary"], len(got.Body))
	}
}
