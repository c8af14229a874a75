// Package templates holds the mail and page templates, embedded in the
// binaries and parsed once at start.
package templates

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"
	texttemplate "text/template"
)

//go:embed pages/*.html mail/*.html mail/*.txt
var files embed.FS

// Each set of templates is parsed on its first use, not at start: a
// function parses only what it executes (the api its pages, notify its
// mails), which keeps cold starts short (issue 16).

// Pages are the web page templates, all of them in one set (the pages
// are rendered from sets of their own: Render). Each page template is
// executed with a value that has a Lang field ("ru" or "en"), which the
// "t" function uses.
var Pages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(Funcs).ParseFS(files, "pages/*.html"))
})

// MailHTML and MailText are the HTML and text parts of the mails; each
// kind of mail is one template of each, named by the kind.
var (
	MailHTML = sync.OnceValue(func() *template.Template {
		return template.Must(template.New("").Funcs(Funcs).ParseFS(files, "mail/*.html"))
	})
	MailText = sync.OnceValue(func() *texttemplate.Template {
		return texttemplate.Must(texttemplate.New("").Funcs(texttemplate.FuncMap(Funcs)).ParseFS(files, "mail/*.txt"))
	})
)

// Funcs are the helpers the templates use.
var Funcs = template.FuncMap{
	"t":      T,
	"tf":     Tf,
	"money":  Money,
	"usd":    USD,
	"add":    func(a, b int) int { return a + b },
	"sub":    func(a, b int) int { return a - b },
	"script": Script,
	"dict":   dict,
	"signed": Signed,
}

// dict makes a map of its key, value arguments, to hand a sub-template
// more than one value.
func dict(kv ...any) (map[string]any, error) {
	if len(kv)%2 != 0 {
		return nil, fmt.Errorf("dict: odd number of arguments")
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			return nil, fmt.Errorf("dict: key %v is not a string", kv[i])
		}
		m[k] = kv[i+1]
	}
	return m, nil
}

// Tf translates a key whose text is a format and fills it in, its
// numbers written the reader's way and a counted text in the form its
// count asks for.
func Tf(lang, key string, args ...any) string {
	if _, ok := counted[key]; ok {
		return Sprintf(lang, key, args...)
	}
	return Sprintf(lang, T(lang, key), args...)
}

// USD writes an amount of dollars the way the reader's language does,
// never broken across lines: "1 234 $" in Russian, "$1 234" in English.
func USD(lang string, v int64) string {
	m := Money(lang, v)
	if lang == "en" {
		if rest, neg := strings.CutPrefix(m, "−"); neg {
			return "−$" + rest
		}
		return "$" + m
	}
	return m + "\u00a0$"
}

// Render executes the named page, from the set of the files that page
// needs (pageSet).
func Render(w io.Writer, name string, data any) error {
	set, err := pageSet(name)
	if err == nil {
		err = set.ExecuteTemplate(w, name, data)
	}
	if err != nil {
		return fmt.Errorf("render %s: %w", name, err)
	}
	return nil
}

// Money writes an amount of whole units: "1 234 567", "1,234,567".
func Money(lang string, v int64) string { return Num(lang, v) }
