package views

import (
	"time"
	"unicode/utf8"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/templates"
)

// Table talk on the pages (issue 17): the talk page, and a card of the
// newest messages on the game page. Texts are the authors', which the
// templates escape like any other value and never mark safe.

// talkCardLines and talkCardRunes bound the card on the game page, which
// must stay small beside the board: the talk page has everything.
const (
	talkCardLines = 3
	talkCardRunes = 280
)

// TalkRequest is what a talk view is made from.
type TalkRequest struct {
	Lang   string
	Rec    *service.Record
	Reader Reader
	Page   service.TalkPageOf
	// Link makes a link to another page of the game for the same reader,
	// in the same language: its path, then query names and values.
	Link func(path string, query ...string) string
	// Before is the cursor the page was read from ("" for the newest).
	Before string
	// Text and To refill the form after a refusal.
	Text string
	To   int
}

// Talk is the table talk as a page or a card shows it to one reader.
type Talk struct {
	ID      string
	Lines   []TalkLine
	CanPost bool // a seat writes; the organiser and spectators read
	CanHide bool // the organiser hides and shows again
	Role    string
	To      []TalkTo // whom a seat can write to: the table, then each other seat
	Hint    string
	Text    string // the form's text, kept after a refusal
	// PageURL is the talk page; OlderURL its next page back, NewestURL
	// its first (on an older page).
	PageURL, OlderURL, NewestURL string
	More                         bool // the card shows only the newest
}

// TalkLine is one message for the page.
type TalkLine struct {
	Key              string
	Who, ToWho       string // the author, and for a private message its recipient
	Seat             int    // the author's engine seat (the colour of their dot); −1 before the game
	ISO, When        string
	Text             string
	Cut              bool // the card shows its beginning only
	Hidden, Private  bool
	Mine, HiddenText bool // HiddenText: a hidden message whose text this reader still sees
}

// TalkTo is one choice of recipient.
type TalkTo struct {
	Value    int
	Name     string
	Selected bool
}

// TalkOf makes the talk page's view for q's reader.
func TalkOf(q TalkRequest) Talk {
	t := talkBase(q)
	for _, l := range q.Page.Lines {
		t.Lines = append(t.Lines, talkLine(q, l))
	}
	t.PageURL = q.Link("/g/" + q.Rec.ID + "/talk")
	if q.Page.Older != "" {
		t.OlderURL = q.Link("/g/"+q.Rec.ID+"/talk", "before", q.Page.Older)
	}
	if q.Before != "" {
		t.NewestURL = t.PageURL
	}
	return t
}

// TalkCard makes the game page's card: the newest few messages, each cut
// short, and the form.
func TalkCard(q TalkRequest) Talk {
	t := talkBase(q)
	t.CanHide = false // the organiser hides on the talk page: the game page's forms are its decisions
	for i, l := range q.Page.Lines {
		if i == talkCardLines {
			t.More = true
			break
		}
		ln := talkLine(q, l)
		if utf8.RuneCountInString(ln.Text) > talkCardRunes {
			ln.Text, ln.Cut = string([]rune(ln.Text)[:talkCardRunes]), true
		}
		t.Lines = append(t.Lines, ln)
	}
	t.More = t.More || q.Page.Older != ""
	t.PageURL = q.Link("/g/" + q.Rec.ID + "/talk")
	return t
}

func talkBase(q TalkRequest) Talk {
	l, rec := q.Lang, q.Rec
	t := Talk{ID: rec.ID, Role: q.Reader.Role, CanPost: q.Reader.Invite >= 0, CanHide: q.Reader.Role == "organiser", Text: q.Text,
		Hint: templates.Tf(l, "talk_hint", service.MaxTalkRunes, service.TalkPerHour)}
	if t.CanPost {
		t.To = append(t.To, TalkTo{Value: store.TalkPublic, Name: templates.T(l, "talk_to_all"), Selected: q.To == store.TalkPublic})
		for i, s := range rec.Seats {
			if i != q.Reader.Invite && s.Accepted {
				t.To = append(t.To, TalkTo{Value: i, Name: s.Name, Selected: q.To == i})
			}
		}
	}
	return t
}

func talkLine(q TalkRequest, l service.TalkLine) TalkLine {
	rec := q.Rec
	name := func(i int) string {
		if i >= 0 && i < len(rec.Seats) {
			return rec.Seats[i].Name
		}
		return "—"
	}
	at := time.Unix(l.At, 0).UTC()
	ln := TalkLine{Key: l.Key, Who: name(l.From), Seat: -1, ISO: at.Format(time.RFC3339), When: DateTime(q.Lang, at) + " UTC",
		Text: l.Text, Hidden: l.Hidden, Private: l.Private, Mine: l.Mine, HiddenText: l.Hidden && l.Text != ""}
	if l.From >= 0 && l.From < len(rec.Seats) {
		ln.Seat = rec.Seats[l.From].Engine
	}
	if l.Private {
		ln.ToWho = name(l.To)
	}
	return ln
}
