package mailbox_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/infra/mailer"
	"github.com/pbmgames/pbm/infra/mailer/mailbox"
)

var picture = []byte("\x89PNG\r\n\x1a\nnot really a picture")

func invite() mailer.Message {
	return mailer.Message{
		ID:      "g1/m1",
		To:      "anna@example.org",
		Subject: "Приглашение в игру «Вестерн»",
		Text:    "Анна,\n\nВас приглашают сыграть по почте. Принять приглашение:\nhttp://localhost:8080/g/g1/invite?lang=ru&t=abc.def\n",
		HTML: `<!doctype html><html><head><title>x</title></head><body><p>Анна, вас приглашают.</p>` +
			`<img src="cid:board" alt="Доска"><p><a href="http://localhost:8080/g/g1/invite?lang=ru&amp;t=abc.def">Принять</a></p></body></html>`,
		Unsubscribe: "http://localhost:8080/unsubscribe?t=u1",
		Inline:      []mailer.Inline{{ContentID: "board", ContentType: "image/png", FileName: "board.png", Data: picture}},
		Tags:        map[string]string{"game": "g1", "kind": "invite"},
	}
}

func turn() mailer.Message {
	return mailer.Message{
		ID:      "g1/m2",
		To:      "Bob@Example.org",
		Subject: `<b>Ход</b> & "кавычки"`,
		Text:    "Your move: http://localhost:8080/g/g1?t=xyz&lang=en.\nAnd again (http://localhost:8080/g/g1?t=zzz).\n",
	}
}

func open(t *testing.T, path string, out io.Writer) *mailbox.Mailbox {
	t.Helper()
	b, err := mailbox.Open(path, out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func get(t *testing.T, h http.Handler, target string) (*http.Response, string) {
	t.Helper()
	return do(t, h, httptest.NewRequest(http.MethodGet, target, nil))
}

func do(t *testing.T, h http.Handler, r *http.Request) (*http.Response, string) {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	resp := w.Result()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

func wantContains(t *testing.T, what, body string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(body, p) {
			t.Errorf("%s lacks %q:\n%s", what, p, body)
		}
	}
}

func TestMailbox(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mailbox.db")
	var out bytes.Buffer
	b := open(t, path, &out)
	ctx := context.Background()
	for _, m := range []mailer.Message{invite(), turn()} {
		if err := b.Send(ctx, m); err != nil {
			t.Fatal(err)
		}
	}

	wantOut := "mail to anna@example.org: Приглашение в игру «Вестерн»\n" +
		"  http://localhost:8080/g/g1/invite?lang=ru&t=abc.def\n" +
		"mail to Bob@Example.org: <b>Ход</b> & \"кавычки\"\n" +
		"  http://localhost:8080/g/g1?t=xyz&lang=en\n" +
		"  http://localhost:8080/g/g1?t=zzz\n"
	if out.String() != wantOut {
		t.Errorf("console:\n%s\nwant:\n%s", out.String(), wantOut)
	}

	h := b.Handler()

	// The list: newest first, subjects escaped.
	resp, body := get(t, h, "/mailbox")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("list: %s %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	wantContains(t, "list", body, `lang="ru"`, "Почтовый ящик", `href="/mailbox/1?lang=ru"`, `href="/mailbox/2?lang=ru"`,
		"anna@example.org", "Bob@Example.org", "&lt;b&gt;Ход&lt;/b&gt; &amp; &#34;кавычки&#34;", `name="viewport"`)
	if strings.Contains(body, "<b>Ход") {
		t.Error("list shows a subject's markup unescaped")
	}
	if i, j := strings.Index(body, "/mailbox/2?"), strings.Index(body, "/mailbox/1?"); i < 0 || j < i {
		t.Error("list is not newest first")
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("CSP %q", csp)
	}

	// In English, filtered by address (any case).
	_, body = get(t, h, "/mailbox?lang=en&to=bob@example.org")
	wantContains(t, "filtered list", body, `lang="en"`, "Mailbox", "/mailbox/2?lang=en", "Mails: 1")
	if strings.Contains(body, "/mailbox/1?") {
		t.Error("filter by address shows another address's mail")
	}
	_, body = get(t, h, "/mailbox?to=nobody@example.org")
	wantContains(t, "empty list", body, "Писем нет.")

	// One mail: the HTML part in a sandboxed frame, its picture and links
	// rewritten; the text part with working links.
	resp, body = get(t, h, "/mailbox/1")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("mail 1: %s", resp.Status)
	}
	wantContains(t, "mail 1", body,
		"<h1>Приглашение в игру «Вестерн»</h1>", "anna@example.org",
		`sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation"`,
		// srcdoc holds the HTML part, escaped as an attribute value:
		`srcdoc="&lt;!doctype html&gt;&lt;html&gt;&lt;head&gt;&lt;base target=&#34;_top&#34;&gt;&lt;title&gt;`,
		`&lt;img src=&#34;/mailbox/1/cid/board&#34;`,
		`href=&#34;http://localhost:8080/g/g1/invite?lang=ru&amp;amp;t=abc.def&#34;`,
		`<a href="http://localhost:8080/g/g1/invite?lang=ru&amp;t=abc.def">http://localhost:8080/g/g1/invite?lang=ru&amp;t=abc.def</a>`,
		`<a href="http://localhost:8080/unsubscribe?t=u1">`,
	)
	if strings.Contains(body, "cid:board") {
		t.Error("mail page still refers to cid:board")
	}

	resp, body = get(t, h, "/mailbox/2?lang=en")
	wantContains(t, "mail 2", body, "<h1>&lt;b&gt;Ход&lt;/b&gt; &amp; &#34;кавычки&#34;</h1>", "Text part",
		`<a href="http://localhost:8080/g/g1?t=xyz&amp;lang=en">http://localhost:8080/g/g1?t=xyz&amp;lang=en</a>.`,
		`(<a href="http://localhost:8080/g/g1?t=zzz">http://localhost:8080/g/g1?t=zzz</a>).`)
	if strings.Contains(body, "<iframe") {
		t.Error("a mail without an HTML part gets a frame")
	}

	// The picture.
	resp, body = get(t, h, "/mailbox/1/cid/board")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/png" || body != string(picture) {
		t.Errorf("picture: %s %q, %d bytes", resp.Status, resp.Header.Get("Content-Type"), len(body))
	}

	// What is not there.
	for _, target := range []string{"/mailbox/3", "/mailbox/0", "/mailbox/x", "/mailbox/99999999999999999999", "/mailbox/1/cid/nope", "/mailbox/2/cid/board"} {
		if resp, _ := get(t, h, target); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %s, want 404", target, resp.Status)
		}
	}

	// Reopened, the mails are still there.
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	b = open(t, path, nil)
	defer b.Close()
	h = b.Handler()
	mails, err := b.List("", 0)
	if err != nil || len(mails) != 2 || mails[0].N != 2 || mails[1].Subject != invite().Subject {
		t.Fatalf("after reopening: %d mails, %v", len(mails), err)
	}
	m, err := b.Get(1)
	if err != nil || !bytes.Equal(m.Inline[0].Data, picture) || m.Tags["kind"] != "invite" || m.At.IsZero() {
		t.Errorf("mail 1 after reopening: %+v, %v", m, err)
	}
	if resp, _ := get(t, h, "/mailbox/1/cid/board"); resp.StatusCode != http.StatusOK {
		t.Errorf("picture after reopening: %s", resp.Status)
	}

	// Clear empties it; numbers go on.
	resp, _ = do(t, h, httptest.NewRequest(http.MethodPost, "/mailbox/clear?lang=en", nil))
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/mailbox?lang=en" {
		t.Errorf("clear: %s to %q", resp.Status, resp.Header.Get("Location"))
	}
	if mails, _ := b.List("", 0); len(mails) != 0 {
		t.Errorf("%d mails after clear", len(mails))
	}
	if _, err := b.Get(1); !errors.Is(err, mailbox.ErrNotFound) {
		t.Errorf("Get(1) after clear: %v", err)
	}
	if err := b.Send(ctx, turn()); err != nil {
		t.Fatal(err)
	}
	if mails, _ := b.List("", 0); len(mails) != 1 || mails[0].N != 3 {
		t.Errorf("after clear the next mail is %+v, want number 3", mails)
	}
	if resp, _ := get(t, h, "/mailbox/clear"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /mailbox/clear: %s, want 404 (it is not a mail)", resp.Status)
	}
}

func TestLinks(t *testing.T) {
	got := mailbox.Links("See https://a.example/x?y=1, then «http://b.example/p»; not ftp://c.\n")
	want := []string{"https://a.example/x?y=1", "http://b.example/p"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Links = %q, want %q", got, want)
	}
}

func TestCIDRewriting(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "m.db"), nil)
	defer b.Close()
	m := mailer.Message{To: "a@example.org", Subject: "s",
		HTML:   `<p style="background:url(cid:bg%40pbm)">cid:text stays</p><img src='cid:bg%40pbm'>`,
		Inline: []mailer.Inline{{ContentID: "bg@pbm", ContentType: "image/png", Data: picture}}}
	if err := b.Send(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	h := b.Handler()
	_, body := get(t, h, "/mailbox/1")
	wantContains(t, "mail", body, "url(/mailbox/1/cid/bg@pbm)", "cid:text stays", `&lt;img src=&#39;/mailbox/1/cid/bg@pbm&#39;&gt;`,
		`srcdoc="&lt;base target=&#34;_top&#34;&gt;&lt;p`)
	if resp, _ := get(t, h, "/mailbox/1/cid/"+url.PathEscape("bg@pbm")); resp.StatusCode != http.StatusOK {
		t.Errorf("picture bg@pbm: %s", resp.Status)
	}
}

func TestNotAPicture(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "m.db"), nil)
	defer b.Close()
	m := mailer.Message{To: "a@example.org", Subject: "s", Text: "t",
		Inline: []mailer.Inline{{ContentID: "x", ContentType: "text/html", Data: []byte("<script>alert(1)</script>")}}}
	if err := b.Send(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	resp, _ := get(t, b.Handler(), "/mailbox/1/cid/x")
	if ct := resp.Header.Get("Content-Type"); ct != "application/octet-stream" || resp.Header.Get("Content-Disposition") != "attachment" {
		t.Errorf("an HTML inline part is served as %q, %q", ct, resp.Header.Get("Content-Disposition"))
	}
}
