package httpapi_test

import (
	"bytes"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"
)

// maxFavicon bounds the icon's weight.
const maxFavicon = 1 << 10

// TestFavicon (issue 16): /favicon.ico, which browsers ask for unasked
// with the first page they open, is a small 32×32 PNG kept a year and
// never revalidated, with an ETag a cache can ask again with (304).
func TestFavicon(t *testing.T) {
	f := newPageFixture(t)
	get := func(header http.Header) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, f.srv.URL+"/favicon.ico", nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, vs := range header {
			req.Header[k] = vs
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, body
	}

	resp, body := get(nil)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("GET /favicon.ico: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if cc := resp.Header.Get("Cache-Control"); !strings.Contains(cc, "max-age=31536000") || !strings.Contains(cc, "immutable") || !strings.Contains(cc, "public") {
		t.Errorf("Cache-Control %q: want public, a year, immutable", cc)
	}
	if len(body) > maxFavicon {
		t.Errorf("the icon weighs %d bytes, over %d", len(body), maxFavicon)
	}
	img, err := png.Decode(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("the icon is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 32 || b.Dy() != 32 {
		t.Errorf("the icon is %v, want 32×32", b)
	}
	etag := resp.Header.Get("ETag")
	if !strings.HasPrefix(etag, `"`) || len(etag) < 10 {
		t.Fatalf("ETag %q: want a strong one", etag)
	}

	resp, body = get(http.Header{"If-None-Match": {etag}})
	if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
		t.Errorf("GET /favicon.ico, If-None-Match its ETag: %d with %d bytes, want 304 and none", resp.StatusCode, len(body))
	}
	resp, _ = get(http.Header{"If-None-Match": {`"something-else"`}})
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /favicon.ico, If-None-Match another ETag: %d, want 200", resp.StatusCode)
	}

}
