// Package templates holds the mail and page templates, embedded in the
// binaries and parsed once at start.
package templates

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	texttemplate "text/template"
)

//go:embed pages/*.html mail/*.html mail/*.txt
var files embed.FS

// Pages are the web page templates. Each page template is executed with a
// value that has a Lang field ("ru" or "en"), which the "t" function uses.
var Pages = template.Must(template.New("").Funcs(Funcs).ParseFS(files, "pages/*.html"))

// MailHTML and MailText are the HTML and text parts of the mails; each
// kind of mail is one template of each, named by the kind.
var (
	MailHTML = template.Must(template.New("").Funcs(Funcs).ParseFS(files, "mail/*.html"))
	MailText = texttemplate.Must(texttemplate.New("").Funcs(texttemplate.FuncMap(Funcs)).ParseFS(files, "mail/*.txt"))
)

// Funcs are the helpers the templates use.
var Funcs = template.FuncMap{
	"t":     T,
	"money": Money,
	"add":   func(a, b int) int { return a + b },
}

// Render executes the named page.
func Render(w io.Writer, name string, data any) error {
	if err := Pages.ExecuteTemplate(w, name, data); err != nil {
		return fmt.Errorf("render %s: %w", name, err)
	}
	return nil
}

// Money writes whole units with thin grouping: 1 234 567.
func Money(v int64) string {
	neg := v < 0
	if neg {
		v = -v
	}
	s := fmt.Sprint(v)
	out := make([]byte, 0, len(s)+len(s)/3+1)
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ' ')
		}
		out = append(out, s[i])
	}
	if neg {
		return "−" + string(out)
	}
	return string(out)
}
