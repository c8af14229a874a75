package httpapi

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"net/http"
	"time"
)

// faviconPNG is the service's icon, an envelope with its seal:
// favicon.svg drawn at 32×32 by Chromium (a page showing it as a 32×32
// <img>, `chromium --headless --default-background-color=00000000
// --window-size=32,32 --screenshot`). It is served where browsers look
// for an icon unasked, /favicon.ico (every browser reads PNG there), so
// the pages name no icon and weigh not a byte more.
//
//go:embed favicon.png
var faviconPNG []byte

// faviconETag names the icon's bytes.
var faviconETag = func() string {
	sum := sha256.Sum256(faviconPNG)
	return `"` + hex.EncodeToString(sum[:8]) + `"`
}()

// favicon answers GET /favicon.ico. Browsers ask for it with the first
// page they open of the service; kept a year and never revalidated
// (immutable), it costs one request per browser rather than one a page.
// A changed icon has a new ETag, for a cache that asks again after the
// year.
func (a *api) favicon(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", faviconETag)
	h.Set("Content-Type", "image/png")
	// ServeContent answers If-None-Match (304), HEAD and ranges, and sets
	// Content-Length.
	http.ServeContent(w, r, "favicon.ico", time.Time{}, bytes.NewReader(faviconPNG))
}
