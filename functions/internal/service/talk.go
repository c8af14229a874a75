package service

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pbmgames/pbm/infra/store"
)

// Table talk (issue 17): a message board per game, public or private
// between two seats, kept as items of its own (store.TalkStore) so that
// posting never rewrites the game item. Who reads what:
//   - a seat reads the public messages and the private ones it wrote or
//     was sent;
//   - the organiser reads the public ones, to moderate them, but no
//     private ones: a deal between two players is theirs (an organiser
//     who plays reads their own through their seat's link, like anyone);
//   - a spectator reads the public ones.
//
// A message the organiser hid stays stored and in its place, shown to
// everyone as hidden by the organiser; its author and the organiser still
// see its text, marked hidden (the author knows what they wrote, and the
// organiser can show it again), nobody else does.

// Limits of table talk.
const (
	// MaxTalkRunes is the longest message, in characters.
	MaxTalkRunes = 1000
	// TalkPerHour is how many messages a seat may post in an hour of the
	// clock: enough for a deal, too few to flood a table's mailboxes.
	TalkPerHour = 10
	// TalkPage is how many messages a page of talk holds, and
	// TalkPageBytes how much their texts may weigh escaped (the page after
	// takes the rest): ten of the heaviest messages would take a page over
	// its 60 KB (SPEC §6).
	TalkPage      = 10
	TalkPageBytes = 30 << 10
	// talkMailed bounds the messages one mail folds in: the newest are
	// told, and the board has the rest.
	talkMailed = 20
	// maxTalkKey bounds the keys (and page cursors) a client may send:
	// the service's are 25 characters.
	maxTalkKey = 64
)

// TalkReader is who reads the talk: a seat (its invitation index), the
// organiser, or a spectator (Seat −1, not Organiser).
type TalkReader struct {
	Seat      int
	Organiser bool
}

// TalkLine is a message as one reader may see it.
type TalkLine struct {
	Key     string `json:"key"`
	At      int64  `json:"at"`   // seconds since the Unix epoch
	From    int    `json:"from"` // the author's invitation index
	To      int    `json:"to"`   // −1 for the table, or the seat it is for
	Text    string `json:"text,omitempty"`
	Hidden  bool   `json:"hidden,omitempty"`  // hidden by the organiser
	Private bool   `json:"private,omitempty"` // between two seats
	Mine    bool   `json:"mine,omitempty"`    // the reader wrote it
}

// TalkEnabled tells whether the service keeps table talk (Config.Talk).
func (s *Service) TalkEnabled() bool { return s.talk != nil }

func (s *Service) talkStore() (store.TalkStore, error) {
	if s.talk == nil {
		return nil, newError(CodeNotFound, "Переписка за столом здесь не ведётся.", "This service keeps no table talk.", errors.New("no talk store"))
	}
	return s.talk, nil
}

// PostTalk posts text from the seat from of rec, to the table (to −1) or
// to one other seat, under the size and rate limits.
func (s *Service) PostTalk(ctx context.Context, rec *Record, from, to int, text string) (TalkLine, error) {
	ts, err := s.talkStore()
	if err != nil {
		return TalkLine{}, err
	}
	if from < 0 || from >= len(rec.Seats) {
		return TalkLine{}, Fail(CodeForbidden, fmt.Errorf("talk from seat %d of %d", from, len(rec.Seats)))
	}
	if to != store.TalkPublic && (to < 0 || to >= len(rec.Seats) || to == from || !rec.Seats[to].Accepted) {
		return TalkLine{}, invalid("Личное сообщение можно отправить только другому игроку этой игры.",
			"A private message goes to another player of this game.")
	}
	text, err = cleanTalk(text)
	if err != nil {
		return TalkLine{}, err
	}
	now := s.now()
	hour := now.Unix() / 3600
	err = s.guard.Count(ctx, fmt.Sprintf("talk/%s/%d/3600/%d", rec.ID, from, hour), TalkPerHour, (hour+1)*3600, now.Unix())
	if errors.Is(err, store.ErrLimited) {
		wait := time.Duration((hour+1)*3600-now.Unix()) * time.Second
		mins := max(1, int((wait+time.Minute-1)/time.Minute))
		e := newError(CodeTooMany,
			fmt.Sprintf("Не больше %d сообщений в час. Следующее можно отправить через %d мин.", TalkPerHour, mins),
			fmt.Sprintf("At most %d messages an hour. You can send the next one in %d min.", TalkPerHour, mins), err)
		e.RetryAfter = wait
		return TalkLine{}, e
	}
	if err != nil {
		return TalkLine{}, fmt.Errorf("talk of game %s: count: %w", rec.ID, err)
	}
	var suffix [4]byte
	if _, err := io.ReadFull(s.rand, suffix[:]); err != nil {
		return TalkLine{}, fmt.Errorf("talk of game %s: %w", rec.ID, err)
	}
	m := store.TalkMessage{Game: rec.ID, Key: fmt.Sprintf("%016d-%08x", now.UnixMilli(), binary.BigEndian.Uint32(suffix[:])),
		At: now.Unix(), From: from, To: to, Text: text}
	if err := ts.PostTalk(ctx, m); err != nil {
		return TalkLine{}, fmt.Errorf("talk of game %s: %w", rec.ID, err)
	}
	s.log.InfoContext(ctx, "talk posted", "game", rec.ID, "seat", from, "private", to != store.TalkPublic, "runes", utf8.RuneCountInString(text))
	if s.talkPosted != nil {
		s.talkPosted(ctx, rec.ID, m.Key)
	}
	line, _ := lineFor(m, TalkReader{Seat: from})
	return line, nil
}

// cleanTalk checks a message: plain text of 1 to MaxTalkRunes
// characters, line breaks and tabs being the only control characters.
// Markup is text like any other: pages and mails escape it.
func cleanTalk(text string) (string, error) {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	if !utf8.ValidString(text) {
		return "", invalid("Сообщение должно быть текстом в UTF-8.", "A message must be text in UTF-8.")
	}
	if text == "" {
		return "", invalid("Пустое сообщение: напишите что-нибудь.", "The message is empty: write something.")
	}
	if n := utf8.RuneCountInString(text); n > MaxTalkRunes {
		return "", invalid(fmt.Sprintf("Сообщение слишком длинное: %d знаков, можно не больше %d.", n, MaxTalkRunes),
			fmt.Sprintf("The message is too long: %d characters, at most %d.", n, MaxTalkRunes))
	}
	if strings.ContainsFunc(text, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }) {
		return "", invalid("В сообщении есть управляющие символы.", "The message holds control characters.")
	}
	return text, nil
}

// lineFor is m as rd may see it; false if rd may not see it at all.
func lineFor(m store.TalkMessage, rd TalkReader) (TalkLine, bool) {
	private := m.To != store.TalkPublic
	mine := !rd.Organiser && rd.Seat >= 0 && rd.Seat == m.From
	if private && (rd.Organiser || rd.Seat < 0 || rd.Seat != m.From && rd.Seat != m.To) {
		return TalkLine{}, false
	}
	l := TalkLine{Key: m.Key, At: m.At, From: m.From, To: m.To, Text: m.Text, Hidden: m.Hidden, Private: private, Mine: mine}
	if m.Hidden && !mine && !rd.Organiser {
		l.Text = ""
	}
	return l, true
}

// TalkPageOf is one page of talk for a reader, newest first.
type TalkPageOf struct {
	Lines []TalkLine `json:"messages"`
	// Older is the cursor of the next page (before=Older), "" at the end.
	Older string `json:"older,omitempty"`
	// MailEach, for a seat, says whether it is mailed each message
	// (talkmail.go); the API fills it in.
	MailEach *bool `json:"mail_each,omitempty"`
}

// ReadTalk reads a page of rec's talk that rd may see, newest first,
// starting below before ("" for the newest).
func (s *Service) ReadTalk(ctx context.Context, rec *Record, rd TalkReader, before string, n int) (TalkPageOf, error) {
	ts, err := s.talkStore()
	if err != nil {
		return TalkPageOf{}, err
	}
	if n <= 0 || n > TalkPage {
		n = TalkPage
	}
	if rd.Seat >= len(rec.Seats) {
		return TalkPageOf{}, Fail(CodeForbidden, fmt.Errorf("talk for seat %d of %d", rd.Seat, len(rec.Seats)))
	}
	if len(before) > maxTalkKey || strings.ContainsFunc(before, func(r rune) bool { return r < '!' || r > '~' }) {
		return TalkPageOf{}, invalid("Неверная ссылка на страницу разговора.", "Invalid link to a page of the talk.")
	}
	var page TalkPageOf
	weight, last := 0, before
	// Private messages of others are skipped, so a page may take more
	// than one read; a few reads at most, then the page is what it is.
	for range 4 {
		ms, err := ts.TalkBefore(ctx, rec.ID, last, n+1)
		if err != nil {
			return TalkPageOf{}, fmt.Errorf("talk of game %s: %w", rec.ID, err)
		}
		for _, m := range ms {
			if l, ok := lineFor(m, rd); ok {
				w := talkWeight(l.Text)
				if len(page.Lines) == n || len(page.Lines) > 0 && weight+w > TalkPageBytes {
					page.Older = last
					return page, nil
				}
				page.Lines = append(page.Lines, l)
				weight += w
			}
			last = m.Key
		}
		if len(ms) <= n {
			return page, nil
		}
	}
	page.Older = last
	return page, nil
}

// talkWeight is what text weighs on a page at most: a page escapes
// &, <, >, quotes and + into entities of up to five bytes.
func talkWeight(text string) int {
	w := len(text)
	for _, r := range text {
		if strings.ContainsRune("&<>\"'+", r) {
			w += 4
		}
	}
	return w
}

// HideTalk hides (or shows again) the message of key in game id: the
// organiser's moderation. Private messages are not theirs to see, nor to
// hide.
func (s *Service) HideTalk(ctx context.Context, id, key string, hidden bool) error {
	ts, err := s.talkStore()
	if err != nil {
		return err
	}
	if key == "" || len(key) > maxTalkKey {
		return invalid("Не указано, какое сообщение скрыть.", "Which message to hide is missing.")
	}
	// The newest message below key+"~" is key's if there is one: keys are
	// of one width and '~' sorts after every character they hold.
	ms, err := ts.TalkBefore(ctx, id, key+"~", 1)
	if err != nil {
		return fmt.Errorf("hide talk of game %s: %w", id, err)
	}
	if len(ms) == 0 || ms[0].Key != key || ms[0].To != store.TalkPublic {
		return newError(CodeNotFound, "Такого сообщения нет.", "No such message.", fmt.Errorf("talk %s of game %s", key, id))
	}
	if ms[0].Hidden == hidden {
		return nil
	}
	m := ms[0]
	m.Hidden = hidden
	if err := ts.SetTalkHidden(ctx, m); err != nil {
		return fmt.Errorf("hide talk of game %s: %w", id, err)
	}
	s.log.InfoContext(ctx, "talk hidden", "game", id, "key", key, "hidden", hidden)
	return nil
}

// TalkMail is what a mail to a seat folds in of the table talk.
type TalkMail struct {
	// Lines are the messages the seat may see that came since its last
	// mail with talk, others' only, oldest first: at most the newest
	// talkMailed of them.
	Lines []TalkLine
	More  bool // there were more than Lines holds: the board has them
	// UpTo is the newest message read, which MarkTalkMailed records once
	// the mail is made ("" when there was nothing new).
	UpTo string
}

// TalkUnmailed reads what a mail to seat of rec folds in.
func (s *Service) TalkUnmailed(ctx context.Context, rec *Record, seat int) (TalkMail, error) {
	var tm TalkMail
	if s.talk == nil || seat < 0 || seat >= len(rec.Seats) {
		return tm, nil
	}
	// The newest page first (read once a drain): a game without talk
	// needs no seat's mark read.
	newest, err := s.newestTalk(ctx, rec.ID)
	if err != nil || len(newest) == 0 {
		if err != nil {
			err = fmt.Errorf("talk of game %s for seat %d: %w", rec.ID, seat, err)
		}
		return tm, err
	}
	seen, err := s.talk.TalkSeen(ctx, rec.ID, seat)
	if err != nil {
		return tm, fmt.Errorf("talk of game %s for seat %d: %w", rec.ID, seat, err)
	}
	// From the newest back to the mark.
	rd := TalkReader{Seat: seat}
	for before := ""; ; {
		ms := newest
		if before != "" {
			ms, err = s.talk.TalkBefore(ctx, rec.ID, before, talkMailed)
		}
		if err != nil {
			return tm, fmt.Errorf("talk of game %s for seat %d: %w", rec.ID, seat, err)
		}
		for _, m := range ms {
			if m.Key <= seen {
				slices.Reverse(tm.Lines)
				return tm, nil
			}
			if tm.UpTo == "" {
				tm.UpTo = m.Key
			}
			if l, ok := lineFor(m, rd); ok && !l.Mine {
				if len(tm.Lines) == talkMailed {
					tm.More = true
					slices.Reverse(tm.Lines)
					return tm, nil
				}
				tm.Lines = append(tm.Lines, l)
			}
		}
		if len(ms) < talkMailed {
			slices.Reverse(tm.Lines)
			return tm, nil
		}
		before = ms[len(ms)-1].Key
	}
}

// MarkTalkMailed records that seat of game id was mailed the talk up to
// key, so the next mail tells only what came after.
func (s *Service) MarkTalkMailed(ctx context.Context, id string, seat int, key string) error {
	if s.talk == nil || key == "" {
		return nil
	}
	if err := s.talk.SetTalkSeen(ctx, id, seat, key); err != nil {
		return fmt.Errorf("talk of game %s for seat %d: %w", id, seat, err)
	}
	return nil
}
