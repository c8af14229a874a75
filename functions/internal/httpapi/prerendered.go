package httpapi

//go:generate go test -run ^TestHomePrerendered$ -update -count 1 .

import (
	"bytes"
	_ "embed"
	"net/http"
	"strings"
	"sync"

	"github.com/pbmgames/pbm/infra/httpgzip"
)

// The blank home page is the first page of every new visitor, and of
// many a cold start of the api function: rendering it there is the
// form's data, its templates' parse and html/template's first
// execution with its escaping, about 1.5–2.5 ms and half a megabyte of
// garbage (issue 24). Yet it is the same in every answer in a language
// but for the form's fresh key, so it is rendered once a build and
// language, with homeKeyHole where the key goes
// (prerendered/home.*.html), and an answer is its two halves around a
// fresh key. TestHomePrerendered fails when the files differ from the
// page rendered now (a template, a text, a game or its lengths
// changed): `go generate ./functions/internal/httpapi` writes them
// anew, as `make lengths` does. A home page that is not blank (the form
// shown again with its error), or whose request changes the page
// (another query parameter, which its language links keep; the local
// run's mailbox), is rendered as before.
//
// Most browsers take the page gzipped: each half is also compressed
// ahead of time (prerendered/home.*.1.deflate and .2.deflate, written
// with the pages), and the gzip of an answer is the two pieces around
// the key (httpgzip.Spliced), rather than the page compressed at each
// answer (0.8 MB of compressor, 0.5–0.8 ms at a cold start).
//
// The pages are rendered from the catalog's games, whose kinds
// prerendered/kinds.txt lists: an api given other games (the tests' third
// game) renders its home page instead.

// homeKeyHole stands for the form's key in the pre-rendered pages: a
// string no page holds otherwise, which html/template writes unchanged
// in an attribute.
const homeKeyHole = "PRERENDEREDxHOMExFORMxKEYxx"

var (
	//go:embed prerendered/home.ru.html
	homeRU []byte
	//go:embed prerendered/home.ru.1.deflate
	homeRU1 []byte
	//go:embed prerendered/home.ru.2.deflate
	homeRU2 []byte
	//go:embed prerendered/home.en.html
	homeEN []byte
	//go:embed prerendered/home.en.1.deflate
	homeEN1 []byte
	//go:embed prerendered/home.en.2.deflate
	homeEN2 []byte
	//go:embed prerendered/kinds.txt
	homeKinds string
)

// prerenderedFor tells whether the pre-rendered pages show the games of
// kinds.
func prerenderedFor(kinds []string) bool {
	return strings.TrimSpace(homeKinds) == strings.Join(kinds, ",")
}

// homeFiles are the pre-rendered files by language: the page, and the
// DEFLATE pieces of its halves (httpgzip.DeflateHalves).
var homeFiles = map[string][3][]byte{"ru": {homeRU, homeRU1, homeRU2}, "en": {homeEN, homeEN1, homeEN2}}

// homeHalves are a pre-rendered home page cut at its key, and their
// DEFLATE pieces.
type homeHalves struct{ before, after, head, tail []byte }

// prerendered are the pre-rendered home pages by language, cut at their
// key. A file without exactly one hole (not generated yet) gives none:
// the page is then rendered.
var prerendered = sync.OnceValue(func() map[string]homeHalves {
	m := map[string]homeHalves{}
	for l, f := range homeFiles {
		before, after, ok := bytes.Cut(f[0], []byte(homeKeyHole))
		if ok && !bytes.Contains(after, []byte(homeKeyHole)) {
			m[l] = homeHalves{before, after, f[1], f[2]}
		}
	}
	return m
})

// prerenderedHome is the pre-rendered blank home page for r, if r asks
// for one: "/" with no query parameter but lang (the page's language
// links then keep none), outside the local run (whose pages show its
// mailbox).
func (a *api) prerenderedHome(r *http.Request) (homeHalves, bool) {
	if !a.prerendered || r.URL.Path != "/" {
		return homeHalves{}, false
	}
	if mailbox, _ := r.Context().Value(mailboxKey).(string); mailbox != "" {
		return homeHalves{}, false
	}
	for k := range r.URL.Query() {
		if k != "lang" {
			return homeHalves{}, false
		}
	}
	h, ok := prerendered()[lang(r)]
	return h, ok
}

// write answers r with the page, key in its hole, as render would, and
// gzipped as httpgzip.Handler would if r takes it so.
func (h homeHalves) write(w http.ResponseWriter, r *http.Request, key string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if httpgzip.Wants(r) && len(h.head) > 0 && len(h.tail) > 0 {
		if gz, err := httpgzip.Spliced(h.head, h.tail, h.before, []byte(key), h.after); err == nil {
			httpgzip.WriteGzipped(w, http.StatusOK, gz)
			return
		}
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(h.before)
	_, _ = w.Write([]byte(key))
	_, _ = w.Write(h.after)
}
