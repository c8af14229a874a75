package mailbox

import (
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/pbmgames/pbm/infra/httplang"
)

// listLimit bounds how many mails the list page shows.
const listLimit = 500

// csp lets the mail page frame the mail's HTML part (a sandboxed srcdoc
// frame that runs no script) and show its pictures; nothing else loads.
const csp = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-src 'self'; " +
	"form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// Handler serves the mailbox pages:
//
//	GET  /mailbox                  the mails, newest first (?to=address filters)
//	GET  /mailbox/{n}              mail n: its HTML part and its text part
//	GET  /mailbox/{n}/cid/{cid}    a picture of mail n
//	POST /mailbox/clear            delete every mail
//
// Pages are in Russian, or English with ?lang=en.
func (b *Mailbox) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /mailbox", b.listPage)
	mux.HandleFunc("GET /mailbox/{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, withLang("/mailbox", httplang.Of(r), nil), http.StatusSeeOther)
	})
	mux.HandleFunc("GET /mailbox/{n}", b.mailPage)
	mux.HandleFunc("GET /mailbox/{n}/cid/{cid}", b.picture)
	mux.HandleFunc("POST /mailbox/clear", b.clear)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", csp)
		w.Header().Set("Cache-Control", "no-store")
		mux.ServeHTTP(w, r)
	})
}

// withLang is path with query q and lang.
func withLang(path, lang string, q url.Values) string {
	v := url.Values{}
	for k, vs := range q {
		v[k] = vs
	}
	v.Set("lang", lang)
	return path + "?" + v.Encode()
}

// words are the pages' texts: [0] Russian, [1] English.
var words = map[string][2]string{
	"mailbox":   {"Почтовый ящик", "Mailbox"},
	"intro":     {"Письма, которые отправил локальный сервис. Ссылки в них ведут на него и работают.", "Mail the local service sent. Its links lead to the service and work."},
	"to":        {"Кому", "To"},
	"subject":   {"Тема", "Subject"},
	"time":      {"Время", "Time"},
	"filter":    {"Показать", "Show"},
	"all":       {"все письма", "all mail"},
	"clear":     {"Удалить все письма", "Delete all mail"},
	"none":      {"Писем нет.", "No mail."},
	"count":     {"Писем: ", "Mails: "},
	"shown":     {"показаны последние ", "showing the latest "},
	"back":      {"← ко всем письмам", "← all mail"},
	"html":      {"HTML-часть", "HTML part"},
	"text":      {"Текстовая часть", "Text part"},
	"unsub":     {"Отписка", "Unsubscribe"},
	"id":        {"Идентификатор", "Id"},
	"notfound":  {"Такого письма нет.", "No such mail."},
	"other":     {"English", "Русский"},
	"otherLang": {"en", "ru"},
}

// texts picks the words of one language.
func texts(lang string) map[string]string {
	i := 0
	if lang == "en" {
		i = 1
	}
	t := make(map[string]string, len(words))
	for k, v := range words {
		t[k] = v[i]
	}
	return t
}

var pages = template.Must(template.New("layout").Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:52rem;padding:.75rem;color:#1d1d1f;background:#fff}
a{color:#0645ad}
header{display:flex;justify-content:space-between;gap:1rem;align-items:baseline;flex-wrap:wrap}
h1{font-size:1.3rem;margin:.5rem 0;overflow-wrap:anywhere}
ol{list-style:none;padding:0;margin:0}
li{border-top:1px solid #ddd;padding:.5rem 0}
li a{font-weight:600;overflow-wrap:anywhere}
.meta{color:#555;font-size:.9rem;overflow-wrap:anywhere}
form{display:flex;gap:.5rem;flex-wrap:wrap;margin:.5rem 0}
input{font:inherit;padding:.3rem;min-width:0;flex:1 1 12rem}
button{font:inherit;padding:.3rem .8rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem .8rem;margin:.5rem 0}
dt{color:#555}dd{margin:0;overflow-wrap:anywhere}
iframe{width:100%;height:70vh;border:1px solid #ccc;background:#fff}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;padding:.6rem;border-radius:4px}
</style></head><body>
<header><a href="{{.Home}}">{{.T.mailbox}}</a><a href="{{.Other}}" lang="{{.T.otherLang}}">{{.T.other}}</a></header>
<main>{{template "body" .}}</main>
</body></html>`))

var listPage = template.Must(template.Must(pages.Clone()).Parse(`{{define "body"}}
<h1>{{.T.mailbox}}</h1>
<p class="meta">{{.T.intro}}</p>
<form method="get" action="/mailbox">
<input type="hidden" name="lang" value="{{.Lang}}">
<input type="search" inputmode="email" name="to" value="{{.Data.To}}" placeholder="{{.T.to}}" aria-label="{{.T.to}}">
<button>{{.T.filter}}</button>
{{if .Data.To}}<a href="{{.Home}}">{{.T.all}}</a>{{end}}
</form>
{{if .Data.Mails}}
<p class="meta">{{.T.count}}{{len .Data.Mails}}{{if .Data.Limited}} ({{.T.shown}}{{len .Data.Mails}}){{end}}</p>
<ol>{{range .Data.Mails}}
<li><a href="{{.Href}}">{{.Subject}}</a><div class="meta">{{.To}} · <time datetime="{{.ISO}}">{{.Time}}</time></div></li>{{end}}
</ol>
<form method="post" action="{{.Data.Clear}}"><button>{{.T.clear}}</button></form>
{{else}}<p>{{.T.none}}</p>{{end}}
{{end}}`))

var mailPage = template.Must(template.Must(pages.Clone()).Parse(`{{define "body"}}
<p><a href="{{.Home}}">{{.T.back}}</a></p>
<h1>{{.Data.Subject}}</h1>
<dl>
<dt>{{.T.to}}</dt><dd>{{.Data.To}}</dd>
<dt>{{.T.time}}</dt><dd><time datetime="{{.Data.ISO}}">{{.Data.Time}}</time></dd>
{{if .Data.Unsubscribe}}<dt>{{.T.unsub}}</dt><dd><a href="{{.Data.Unsubscribe}}">{{.Data.Unsubscribe}}</a></dd>{{end}}
{{if .Data.ID}}<dt>{{.T.id}}</dt><dd>{{.Data.ID}}</dd>{{end}}
</dl>
{{if .Data.HTML}}<h2>{{.T.html}}</h2>
<iframe sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation" srcdoc="{{.Data.HTML}}" title="{{.T.html}}"></iframe>{{end}}
{{if .Data.Text}}<h2>{{.T.text}}</h2>
<pre>{{range .Data.Text}}{{if .URL}}<a href="{{.URL}}">{{.URL}}</a>{{else}}{{.Text}}{{end}}{{end}}</pre>{{end}}
{{end}}`))

type page struct {
	Lang, Title, Home, Other string
	T                        map[string]string
	Data                     any
}

func (b *Mailbox) render(w http.ResponseWriter, r *http.Request, t *template.Template, status int, title string, q url.Values, data any) {
	l := httplang.Of(r)
	other := "en"
	if l == "en" {
		other = "ru"
	}
	p := page{
		Lang: l, Title: title, T: texts(l), Data: data,
		Home:  withLang("/mailbox", l, nil),
		Other: withLang(r.URL.Path, other, q),
	}
	var sb strings.Builder
	if err := t.Execute(&sb, p); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(sb.String()))
}

type listItem struct {
	Href, Subject, To, Time, ISO string
}

func (b *Mailbox) listPage(w http.ResponseWriter, r *http.Request) {
	l := httplang.Of(r)
	to := strings.TrimSpace(r.URL.Query().Get("to"))
	mails, err := b.List(to, listLimit+1)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	limited := len(mails) > listLimit
	if limited {
		mails = mails[:listLimit]
	}
	items := make([]listItem, len(mails))
	for i, m := range mails {
		items[i] = listItem{
			Href:    withLang("/mailbox/"+strconv.FormatUint(m.N, 10), l, nil),
			Subject: m.Subject, To: m.To,
			Time: m.At.Local().Format("2006-01-02 15:04:05"), ISO: m.At.Format("2006-01-02T15:04:05Z"),
		}
	}
	var q url.Values
	if to != "" {
		q = url.Values{"to": {to}}
	}
	b.render(w, r, listPage, http.StatusOK, texts(l)["mailbox"], q, struct {
		To      string
		Mails   []listItem
		Limited bool
		Clear   string
	}{to, items, limited, withLang("/mailbox/clear", l, nil)})
}

// segment is a piece of a text part: plain text or a link.
type segment struct{ Text, URL string }

// segments splits text so that its links can be shown as links.
func segments(text string) []segment {
	var out []segment
	last := 0
	for _, loc := range linkRE.FindAllStringIndex(text, -1) {
		link := trimLink(text[loc[0]:loc[1]])
		if link == "" {
			continue
		}
		end := loc[0] + len(link)
		if loc[0] > last {
			out = append(out, segment{Text: text[last:loc[0]]})
		}
		out = append(out, segment{URL: link})
		last = end
	}
	if last < len(text) {
		out = append(out, segment{Text: text[last:]})
	}
	return out
}

// cidRE finds cid: references in attribute values and CSS url().
var cidRE = regexp.MustCompile(`(?i)(["'(=]\s*)cid:([^"'\s()<>]+)`)

// frameHTML prepares a mail's HTML part for the sandboxed frame: its
// pictures come from /mailbox/{n}/cid/{cid}, and its links open in the
// whole window, as the service's pages may not be framed.
func frameHTML(n uint64, html string) string {
	prefix := "/mailbox/" + strconv.FormatUint(n, 10) + "/cid/"
	html = cidRE.ReplaceAllStringFunc(html, func(s string) string {
		m := cidRE.FindStringSubmatch(s)
		id, err := url.PathUnescape(m[2]) // RFC 2392: a cid URL is %-encoded
		if err != nil {
			id = m[2]
		}
		return m[1] + prefix + url.PathEscape(id)
	})
	head := headRE.FindStringIndex(html)
	return html[:head[1]] + `<base target="_top">` + html[head[1]:]
}

// headRE matches what may come before a <base> element at the start of a
// document: a doctype and the html and head start tags, each optional.
var headRE = regexp.MustCompile(`(?is)^\s*(<!doctype[^>]*>\s*)?(<html[^>]*>\s*)?(<head[^>]*>)?`)

func (b *Mailbox) mail(w http.ResponseWriter, r *http.Request) (Mail, bool) {
	n, err := strconv.ParseUint(r.PathValue("n"), 10, 64)
	var m Mail
	if err == nil {
		m, err = b.Get(n)
	}
	switch {
	case err == nil:
		return m, true
	case errors.Is(err, ErrNotFound), errors.Is(err, strconv.ErrSyntax), errors.Is(err, strconv.ErrRange):
		http.Error(w, texts(httplang.Of(r))["notfound"], http.StatusNotFound)
	default:
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
	return Mail{}, false
}

func (b *Mailbox) mailPage(w http.ResponseWriter, r *http.Request) {
	m, ok := b.mail(w, r)
	if !ok {
		return
	}
	var html string
	if m.HTML != "" {
		html = frameHTML(m.N, m.HTML)
	}
	b.render(w, r, mailPage, http.StatusOK, m.Subject, nil, struct {
		Subject, To, Time, ISO, Unsubscribe, ID, HTML string
		Text                                          []segment
	}{
		m.Subject, m.To, m.At.Local().Format("2006-01-02 15:04:05"), m.At.Format("2006-01-02T15:04:05Z"),
		m.Unsubscribe, m.ID, html, segments(m.Text),
	})
}

func (b *Mailbox) picture(w http.ResponseWriter, r *http.Request) {
	m, ok := b.mail(w, r)
	if !ok {
		return
	}
	cid := r.PathValue("cid")
	for _, p := range m.Inline {
		if p.ContentID != cid {
			continue
		}
		ct := p.ContentType
		if !strings.HasPrefix(ct, "image/") || strings.Contains(ct, "svg") {
			// Only pictures are shown; anything else is a download.
			ct = "application/octet-stream"
			w.Header().Set("Content-Disposition", "attachment")
		}
		w.Header().Set("Content-Type", ct)
		w.Header().Set("Content-Length", strconv.Itoa(len(p.Data)))
		_, _ = w.Write(p.Data)
		return
	}
	http.Error(w, texts(httplang.Of(r))["notfound"], http.StatusNotFound)
}

func (b *Mailbox) clear(w http.ResponseWriter, r *http.Request) {
	if err := b.Clear(); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	http.Redirect(w, r, withLang("/mailbox", httplang.Of(r), nil), http.StatusSeeOther)
}
