// Package mailer holds what the mail senders share: the message they
// deliver and the Sender interface they implement (sesmailer in AWS and
// in tests, mailbox in the local run).
//
// The types mirror notify.Message, notify.Inline and notify.Sender field
// for field. They live here because infra cannot import
// functions/internal/notify: the functions side either copies a
// notify.Message into a Message or declares its types as aliases of these
// (type Message = mailer.Message), which makes every sender here a
// notify.Sender as it stands.
package mailer

import "context"

// Message is one mail ready to send.
type Message struct {
	ID      string // unique per game and mail: "<game>/<mail id>"
	To      string
	Subject string
	Text    string
	HTML    string
	// Unsubscribe is the one-click unsubscribe URL (RFC 8058), if any:
	// sent as List-Unsubscribe with List-Unsubscribe-Post.
	Unsubscribe string
	// Inline holds the pictures the HTML part shows by "cid:" reference.
	Inline []Inline
	// Tags label the message for SES events (game, kind of mail).
	Tags map[string]string
}

// Inline is a picture carried in the mail and shown in its HTML part.
type Inline struct {
	ContentID   string // referenced as cid:<ContentID> in the HTML
	ContentType string // image/png
	FileName    string
	Data        []byte
}

// Sender delivers a message.
type Sender interface {
	Send(ctx context.Context, m Message) error
}
