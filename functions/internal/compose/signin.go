package compose

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"

	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/templates"
)

var _ notify.SignInComposer = (*Composer)(nil)

// player reads what is kept about the recipient: their time zone, and
// the link id and generation of their personal links. A player the
// store cannot read is one with defaults.
func (c *Composer) player(ctx context.Context, email string) store.Player {
	p, err := c.svc.Prefs(ctx, email)
	if err != nil {
		return store.Player{Email: email}
	}
	return p
}

// personal signs the "my games" and unsubscribe links of a mail to p:
// they name p's link id, never the address (issue 17).
func (c *Composer) personal(ctx context.Context, p store.Player, l string) (prefs, unsub string, err error) {
	link := func(path string, purpose linksign.Purpose) (string, error) {
		tok, err := c.svc.PlayerToken(ctx, p, purpose)
		if err != nil {
			return "", err
		}
		return c.base + path + "?" + url.Values{"t": {tok}, "lang": {l}}.Encode(), nil
	}
	if prefs, err = link("/me", linksign.PurposeMyGames); err != nil {
		return "", "", err
	}
	if unsub, err = link("/unsubscribe", linksign.PurposeUnsubscribe); err != nil {
		return "", "", err
	}
	return prefs, unsub, nil
}

// SignIn writes the mail of a sign-in link: in the player's language
// (lang, the form's, when they chose none), the other language below,
// since the one who asked may not be the one who reads; the link works
// once, for service.SignInTTL (30 minutes). It has no "my games" link of a year at
// its foot: the short link is the point.
func (c *Composer) SignIn(ctx context.Context, p store.Player, lang, token string) (notify.Message, error) {
	l := templates.Pick(p.Lang, "ru", "en")
	if p.Lang == "" {
		l = templates.Pick(lang, "ru", "en")
	}
	other := templates.Pick(l, "en", "ru")
	d := Data{Lang: l, Greeting: greeting(l, ""), Game: templates.Pick(l, "Игры по почте", "Play by mail"),
		Subject:  templates.Pick(l, "Ссылка для входа в ваши игры", "Your sign-in link"),
		Text:     templates.T(l, "mail_signin"),
		Prompt:   templates.T(l, "mail_signin_not_me"),
		Others:   templates.T(other, "mail_signin") + " " + templates.T(other, "mail_signin_not_me"),
		LinkText: templates.T(l, "signin_open"),
		Link:     c.base + "/signin/open?" + url.Values{"t": {token}, "lang": {l}}.Encode()}
	// Unique per link: the token's hash, which names neither the
	// address nor the token.
	sum := sha256.Sum256([]byte(token))
	msg := notify.Message{ID: "signin/" + hex.EncodeToString(sum[:12]), To: p.Email, Subject: d.Subject, Tags: map[string]string{"mail": "signin"}}
	var err error
	if msg.HTML, msg.Text, err = render("confirm", d); err != nil {
		return notify.Message{}, fmt.Errorf("compose sign-in: %w", err)
	}
	return msg, nil
}

// render writes the HTML and text parts of a mail by the templates of
// kind.
func render(kind string, d Data) (html, text string, err error) {
	var h, t bytes.Buffer
	if err := templates.MailHTML().ExecuteTemplate(&h, kind, d); err != nil {
		return "", "", fmt.Errorf("html: %w", err)
	}
	if err := templates.MailText().ExecuteTemplate(&t, kind, d); err != nil {
		return "", "", fmt.Errorf("text: %w", err)
	}
	return h.String(), t.String(), nil
}
