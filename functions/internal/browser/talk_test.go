package browser

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
)

// htmlMails are the HTML parts of the mails to addr, oldest first (the
// SES server's GET /store keeps them beside the text).
func (s *site) htmlMails(t *testing.T, addr string) []string {
	t.Helper()
	resp, err := http.Get(s.ses + "/store")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Emails []struct {
			Destination struct {
				To []string `json:"to"`
			} `json:"destination"`
			Body struct {
				HTML string `json:"html"`
			} `json:"body"`
		} `json:"emails"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	var html []string
	for _, m := range out.Emails {
		for _, to := range m.Destination.To {
			if strings.EqualFold(to, addr) {
				html = append(html, m.Body.HTML)
			}
		}
	}
	return html
}

// TestTableTalk (issue 17): a player posts to the table talk on its page
// — hostile text among it — and another reads it in the next mail they
// get and on the page, where it stays text: no script runs, no element
// is made of it, the page keeps to a phone's 360 px, axe finds nothing
// grave, and a page full of the heaviest messages stays under 60 KB. A
// private message reaches neither the third seat's mail nor its page,
// and the mail after the next does not tell the talk again.
func TestTableTalk(t *testing.T) {
	s := newSite(t, t.Name())
	people := []service.Person{{Name: "Анна", Email: "anna@pbm.test", Lang: "ru"}, {Name: "Bob", Email: "bob@pbm.test", Lang: "en"},
		{Name: "Вера", Email: "vera@pbm.test", Lang: "ru"}}
	g := newSeatedGame(t, s, "businessman", `{"laps":3}`, people)
	rec, eg := g.game(t)
	poster := invite(rec, eg.Owing()[0])
	reader, third := (poster+1)%3, (poster+2)%3
	b := newBrowser(t, s.url)

	hostile := []string{
		`<script>window.__pwned = "script"</script>`,
		`<img src=x onerror="window.__pwned = 'img'">`,
		"\u202eстрела влево \u202d" + strings.Repeat("Длинноеслово", 40),
		strings.Repeat("ж", service.MaxTalkRunes-1) + "!",
	}
	talkLink := g.link(t, "/talk", linksign.PurposeSeat, poster, "ru")
	for i, text := range hostile {
		b.open("talk", talkLink)
		b.do(chromedp.SetValue(chromedp.CSS("#talk-text"), text))
		b.press("talk, sent", ".talk-form button", nil)
		if got := b.text(); !strings.Contains(got, "Сообщение отправлено") {
			t.Fatalf("post %d: the page says %.300q", i, got)
		}
	}
	// A deal for the third seat only, through its recipient list.
	b.open("talk", talkLink)
	b.do(chromedp.SetValue(chromedp.CSS("#talk-text"), "секретная сделка"),
		chromedp.SetValue(chromedp.CSS("#talk-to"), strconv.Itoa(third)))
	b.press("talk, sent", ".talk-form button", nil)

	// The reader's next mail: the bots play until the reader is asked
	// for a decision anew.
	before := len(s.htmlMails(t, people[reader].Email))
	g.playUntil(t, func(eg engine.Game) bool { return len(s.htmlMails(t, people[reader].Email)) > before })
	next := s.latest(t, people[reader].Email)
	for _, text := range hostile {
		if !strings.Contains(next.Body.Text, text) {
			t.Errorf("the reader's next mail does not tell %.40q:\n%.2000s", text, next.Body.Text)
		}
	}
	html := s.htmlMails(t, people[reader].Email)
	last := html[len(html)-1]
	if strings.Contains(last, "<script>window") || strings.Contains(last, "<img src=x") || !strings.Contains(last, "&lt;script&gt;") {
		t.Errorf("the mail's HTML carries the markup as markup")
	}
	if strings.Contains(next.Body.Text, "секретная сделка") || strings.Contains(last, "секретная сделка") {
		t.Error("the reader's mail tells a private message between two others")
	}
	talkInMail := next.link("/g/"+g.id+"/talk", false)
	if talkInMail == "" {
		t.Fatalf("the mail has no link to the talk:\n%s", next.Body.Text)
	}

	// The page the mail links to, on a phone.
	b.phone()
	b.open("talk from the mail", talkInMail)
	b.phone()
	checkTalkPage(t, b, hostile)
	if strings.Contains(b.text(), "секретная сделка") {
		t.Error("the reader's talk page shows a private message between two others")
	}
	// The game page's card of the newest talk, for the reader and a
	// spectator.
	for _, link := range []string{g.link(t, "", linksign.PurposeSeat, reader, "en"), g.link(t, "", linksign.PurposeSpectator, linksign.NoSeat, "ru")} {
		b.open("seat with talk", link)
		b.phone()
		if b.count(".talkcard .msg") == 0 {
			t.Error("the game page shows no talk")
		}
		checkTalkPage(t, b, nil)
	}
	// The third seat reads its deal on its page.
	b.open("talk", g.link(t, "/talk", linksign.PurposeSeat, third, "ru"))
	if !strings.Contains(b.text(), "секретная сделка") {
		t.Error("the recipient of a private message does not read it")
	}

	// The heaviest page: ten messages of the characters escaping makes
	// longest.
	for i := range service.TalkPage {
		if _, err := s.svc.PostTalk(t.Context(), rec, []int{reader, third}[i%2], store.TalkPublic, strings.Repeat("&", service.MaxTalkRunes)); err != nil {
			t.Fatal(err)
		}
	}
	b.open("talk, heaviest", g.link(t, "/talk", linksign.PurposeOrganiser, linksign.NoSeat, "ru"))
	if p := b.pages[len(b.pages)-1]; p.Bytes > maxPageBytes {
		t.Errorf("the talk page of ten heaviest messages weighs %d bytes, over %d", p.Bytes, maxPageBytes)
	} else {
		t.Logf("the talk page of ten heaviest messages weighs %d bytes", p.Bytes)
	}
	b.phone()
	checkTalkPage(t, b, nil)

	// The mail after the next tells the talk no more.
	seen := len(s.htmlMails(t, people[reader].Email))
	g.playUntil(t, func(eg engine.Game) bool { return len(s.htmlMails(t, people[reader].Email)) > seen })
	if later := s.latest(t, people[reader].Email); strings.Contains(later.Body.Text, hostile[0]) {
		t.Errorf("the mail after the next tells the same talk again:\n%.1500s", later.Body.Text)
	}
}

// checkTalkPage: the page in the tab ran no script of the talk, made no
// element of it, shows each of texts as written, is no wider than a
// phone, and axe finds nothing grave on it.
func checkTalkPage(t *testing.T, b *browser, texts []string) {
	t.Helper()
	if pwned := eval[string](b, `String(window.__pwned || "")`); pwned != "" {
		t.Errorf("a message ran as script (%s)", pwned)
	}
	if n := b.count(".msg *:not(i)"); n != 0 {
		t.Errorf("%d elements made of messages' text", n)
	}
	shown := eval[[]string](b, `[...document.querySelectorAll(".msg")].map(e => e.textContent)`)
	for _, text := range texts {
		found := false
		for _, s := range shown {
			found = found || s == text
		}
		if !found {
			t.Errorf("the page does not show %.40q as written", text)
		}
	}
	if w := eval[int](b, `document.documentElement.scrollWidth`); w > phoneWidth {
		t.Errorf("the %s page is %d px wide at %d px", b.location(), w, phoneWidth)
		b.screenshot("talk-wide", phoneWidth)
	}
	if grave := b.axe("talk").grave(); len(grave) > 0 {
		t.Errorf("axe on %s: %v", b.location(), grave)
	}
}
