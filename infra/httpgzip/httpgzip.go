// Package httpgzip compresses a handler's text answers with gzip for the
// clients that accept it. The service's API sits behind an API Gateway
// HTTP API, which compresses nothing, so the handler does it itself; the
// local run serves the same handler, so both answer alike.
//
// The answer is kept whole until the handler returns (as the Lambda
// adapter keeps it anyway), so that its size decides, Content-Length is
// exact and a handler's failure half-way leaves nothing sent.
package httpgzip

import (
	"bytes"
	"compress/gzip"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// MinSize is the smallest body worth compressing: below about a kilobyte
// gzip's own 18 bytes and the CPU buy almost nothing.
const MinSize = 1 << 10

// Level is the compression level. On a 55.8 KB game page, level 6 (the
// default) takes 0.9–1.3 ms and leaves 12.0 KB, level 1 takes 0.4–0.5 ms
// and leaves 14.4 KB: the 2.4 KB more sent out cost more (data transfer
// out is about $0.09 per GB, 2 × 10⁻⁷ $ a page) than the half millisecond
// saved of a 128 MB function (10⁻⁹ $).
const Level = gzip.DefaultCompression

// Handler serves next, compressing its answer with gzip when all of these
// hold: the request accepts gzip (Accepts); it is not a HEAD; the status
// carries a body (not 1xx, 204, 206 or 304); the answer is text (HTML,
// JSON, SVG, CSS, JavaScript, XML, plain text: Compressible), is not
// encoded already and is at least MinSize bytes. A compressed answer gets
// Content-Encoding: gzip, its own Content-Length, and its ETag made weak
// (the same content in another coding); every text answer gets
// Vary: Accept-Encoding, so that a cache keeps the two apart.
func Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gw := &writer{ResponseWriter: w, compress: r.Method != http.MethodHead && Accepts(r.Header.Values("Accept-Encoding"))}
		next.ServeHTTP(gw, r)
		gw.finish()
	})
}

// writer keeps the answer until finish when it may be compressed, and
// otherwise passes it through, adding only Vary.
type writer struct {
	http.ResponseWriter
	compress    bool // the client accepts gzip and the method has a body
	status      int
	wroteHeader bool
	body        bytes.Buffer
}

func (w *writer) WriteHeader(code int) {
	if w.wroteHeader {
		return
	}
	if code < 200 {
		// An informational status (103 Early Hints) goes out at once
		// and the final one is still to come.
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.status, w.wroteHeader = code, true
	if !w.compress {
		varyIfText(w.Header(), code)
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *writer) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if !w.compress {
		return w.ResponseWriter.Write(p)
	}
	return w.body.Write(p)
}

// Unwrap lets http.ResponseController reach the server's writer.
func (w *writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish sends what was kept: compressed if it is worth it.
func (w *writer) finish() {
	if !w.compress {
		return
	}
	if !w.wroteHeader {
		if w.body.Len() == 0 {
			return // nothing written: net/http sends its empty 200
		}
		w.status = http.StatusOK
	}
	h := w.Header()
	body := w.body.Bytes()
	if _, set := h["Content-Type"]; !set && len(body) > 0 {
		// net/http would sniff the type from the body it sends: sniff
		// it from the body the handler wrote, not from its gzip.
		h.Set("Content-Type", http.DetectContentType(body))
	}
	varyIfText(h, w.status)
	if len(body) >= MinSize && codable(h, w.status) {
		if gz, ok := gzipped(body); ok {
			h.Set("Content-Encoding", "gzip")
			h.Set("Content-Length", strconv.Itoa(len(gz)))
			h.Del("Accept-Ranges") // ranges of the gzip are not ranges of the content
			if etag := h.Get("ETag"); strings.HasPrefix(etag, `"`) {
				h.Set("ETag", "W/"+etag)
			}
			body = gz
		}
	}
	w.ResponseWriter.WriteHeader(w.status)
	if len(body) > 0 {
		_, _ = w.ResponseWriter.Write(body)
	}
}

// codable tells whether an answer may be sent compressed: a status with
// a whole body, text, not encoded already.
func codable(h http.Header, status int) bool {
	switch {
	case status < 200, status == http.StatusNoContent, status == http.StatusPartialContent, status == http.StatusNotModified:
		return false
	case h.Get("Content-Encoding") != "", h.Get("Content-Range") != "":
		return false
	}
	return Compressible(h.Get("Content-Type"))
}

// varyIfText adds Vary: Accept-Encoding to a text answer, compressed or
// not: the same URL answers other clients in another coding.
func varyIfText(h http.Header, status int) {
	if !codable(h, status) {
		return
	}
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f == "*" || strings.EqualFold(f, "Accept-Encoding") {
				return
			}
		}
	}
	h.Add("Vary", "Accept-Encoding")
}

var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, Level) // Level is valid
	return zw
}}

// gzipped is body compressed, and whether that made it smaller.
func gzipped(body []byte) ([]byte, bool) {
	var out bytes.Buffer
	out.Grow(len(body) / 3)
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(&out)
	if _, err := zw.Write(body); err != nil {
		return nil, false
	}
	if err := zw.Close(); err != nil {
		return nil, false
	}
	return out.Bytes(), out.Len() < len(body)
}

// Accepts tells whether Accept-Encoding values accept gzip: "gzip" (or
// its old name "x-gzip") with a quality above zero, or, when gzip is not
// named, "*" with a quality above zero. No header, an empty one, or
// "gzip;q=0" accept none.
func Accepts(values []string) bool {
	named, star := false, false
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			coding, params, _ := strings.Cut(part, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding != "gzip" && coding != "x-gzip" && coding != "*" {
				continue
			}
			ok := quality(params) > 0
			if coding == "*" {
				star = ok
				continue
			}
			if ok {
				return true
			}
			named = true // gzip refused by name: "*" does not bring it back
		}
	}
	return !named && star
}

// quality is the q parameter of an Accept-Encoding element: 1 when it
// has none, 0 when it is malformed.
func quality(params string) float64 {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || q < 0 || q > 1 {
			return 0
		}
		return q
	}
	return 1
}

// Compressible tells whether a media type is text that gzip shrinks:
// text/*, JSON, XML (SVG among them) and JavaScript.
func Compressible(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	switch {
	case strings.HasPrefix(mt, "text/"), strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return true
	}
	switch mt {
	case "application/json", "application/xml", "application/javascript", "application/ecmascript":
		return true
	}
	return false
}
