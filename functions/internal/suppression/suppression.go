// Package suppression reads the bounce and complaint events SES
// publishes, through the configuration set's event destination, to an SNS
// topic (the bounces Lambda, functions/bounces: BouncesFunction in
// template.yaml, whose handler this is), and suppresses the addresses
// that must not be mailed again (SPEC §4): every recipient of a permanent
// bounce or of a complaint. Transient and undetermined bounces are only
// logged: SES retries those itself, and the address may work tomorrow.
package suppression

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"
)

// Suppression is one address to stop mailing.
type Suppression struct {
	Email  string // lower-case address
	Reason string // "bounce: …" or "complaint: …", with SES's detail
	At     int64  // when the bounce or complaint happened, Unix seconds
}

// Event is what Parse found in one SES event.
type Event struct {
	Type     string        // SES's eventType: "Bounce", "Complaint", …
	Suppress []Suppression // the addresses to suppress, each once
	// Ignored says why nothing is suppressed ("transient bounce", …), or "".
	Ignored string
	// MessageID is SES's id of the mail the event is about, for logs.
	MessageID string
}

// sesEvent is the part of an SES event record this package reads. Event
// publishing names the type eventType; an identity's feedback notifications
// name it notificationType, and are read alike.
type sesEvent struct {
	EventType        string `json:"eventType"`
	NotificationType string `json:"notificationType"`
	Mail             struct {
		Timestamp string `json:"timestamp"`
		MessageID string `json:"messageId"`
	} `json:"mail"`
	Bounce *struct {
		BounceType        string      `json:"bounceType"`    // Permanent, Transient, Undetermined
		BounceSubType     string      `json:"bounceSubType"` // General, NoEmail, Suppressed, …
		BouncedRecipients []recipient `json:"bouncedRecipients"`
		Timestamp         string      `json:"timestamp"`
	} `json:"bounce"`
	Complaint *struct {
		ComplainedRecipients  []recipient `json:"complainedRecipients"`
		ComplaintFeedbackType string      `json:"complaintFeedbackType"` // abuse, fraud, …; often absent
		ComplaintSubType      *string     `json:"complaintSubType"`      // null or OnAccountSuppressionList
		Timestamp             string      `json:"timestamp"`
	} `json:"complaint"`
}

type recipient struct {
	EmailAddress   string `json:"emailAddress"`
	Status         string `json:"status"`
	DiagnosticCode string `json:"diagnosticCode"`
}

// maxReason bounds the stored reason (diagnostic codes can be long).
const maxReason = 300

// Parse reads one SES event record (the Message of an SNS notification).
// received is when SNS got it, the time used if the event carries none.
func Parse(message string, received time.Time) (Event, error) {
	var e sesEvent
	if err := json.Unmarshal([]byte(message), &e); err != nil {
		return Event{}, fmt.Errorf("bounces: not an SES event: %w", err)
	}
	typ := e.EventType
	if typ == "" {
		typ = e.NotificationType
	}
	out := Event{Type: typ, MessageID: e.Mail.MessageID}
	at := func(stamps ...string) int64 {
		for _, s := range stamps {
			if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
				return t.Unix()
			}
		}
		return received.Unix()
	}
	switch typ {
	case "Bounce":
		b := e.Bounce
		if b == nil {
			return Event{}, errors.New("bounces: Bounce event without a bounce object")
		}
		if b.BounceType != "Permanent" {
			out.Ignored = strings.ToLower(or(b.BounceType, "untyped")) + " bounce"
			return out, nil
		}
		when := at(b.Timestamp, e.Mail.Timestamp)
		for _, r := range b.BouncedRecipients {
			detail := strings.Join(nonEmpty(b.BounceType+"/"+b.BounceSubType, r.Status, r.DiagnosticCode), ": ")
			out.add(r.EmailAddress, "bounce: "+detail, when)
		}
		if len(out.Suppress) == 0 {
			return Event{}, errors.New("bounces: permanent bounce without a recipient address")
		}
	case "Complaint":
		c := e.Complaint
		if c == nil {
			return Event{}, errors.New("bounces: Complaint event without a complaint object")
		}
		detail := c.ComplaintFeedbackType
		if c.ComplaintSubType != nil && *c.ComplaintSubType != "" {
			detail = strings.Join(nonEmpty(detail, *c.ComplaintSubType), ", ")
		}
		reason := strings.Join(nonEmpty("complaint", detail), ": ")
		when := at(c.Timestamp, e.Mail.Timestamp)
		for _, r := range c.ComplainedRecipients {
			out.add(r.EmailAddress, reason, when)
		}
		if len(out.Suppress) == 0 {
			return Event{}, errors.New("bounces: complaint without a recipient address")
		}
	case "":
		return Event{}, errors.New("bounces: no eventType: not an SES event")
	default:
		// Another event type (Delivery, Send, …: the event destination is
		// not meant to send them), or SES's test message on a new topic.
		out.Ignored = "event type " + typ
	}
	return out, nil
}

// add appends the address once, skipping what is not an address.
func (e *Event) add(addr, reason string, at int64) {
	email := normalize(addr)
	if email == "" {
		return
	}
	for _, s := range e.Suppress {
		if s.Email == email {
			return
		}
	}
	e.Suppress = append(e.Suppress, Suppression{Email: email, Reason: clip(reason), At: at})
}

// normalize returns the lower-case address of a recipient ("a@b.c" or
// "Name <a@b.c>"), or "" if it is none.
func normalize(addr string) string {
	a, err := mail.ParseAddress(strings.TrimSpace(addr))
	if err != nil || !strings.Contains(a.Address, "@") {
		return ""
	}
	return strings.ToLower(a.Address)
}

// clip makes a reason one printable line of at most maxReason bytes.
func clip(s string) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }), " ")
	if len(s) <= maxReason {
		return s
	}
	s = s[:maxReason]
	for !utf8.ValidString(s) { // a rune was cut
		s = s[:len(s)-1]
	}
	return s + "…"
}

func or(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}

func nonEmpty(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" && p != "/" {
			out = append(out, strings.TrimSuffix(p, "/"))
		}
	}
	return out
}

// Suppressor marks an address as not to be mailed: store.PlayerStore's
// Suppress.
type Suppressor func(ctx context.Context, email, reason string, at int64) error

// Handle suppresses the addresses of the SES events in an SNS batch. A
// message that is not an SES event is logged and dropped (retrying would
// not mend it); a failed Suppress is returned, so that Lambda retries the
// invocation (Suppress is idempotent).
func Handle(ctx context.Context, ev events.SNSEvent, suppress Suppressor, log *slog.Logger) error {
	var errs []error
	for _, r := range ev.Records {
		e, err := Parse(r.SNS.Message, r.SNS.Timestamp)
		if err != nil {
			log.ErrorContext(ctx, "unreadable SES event dropped", "sns_message", r.SNS.MessageID, "topic", r.SNS.TopicArn, "err", err)
			continue
		}
		if e.Ignored != "" {
			log.InfoContext(ctx, "SES event ignored", "type", e.Type, "why", e.Ignored, "ses_message", e.MessageID)
			continue
		}
		for _, s := range e.Suppress {
			if err := suppress(ctx, s.Email, s.Reason, s.At); err != nil {
				errs = append(errs, fmt.Errorf("suppress after %s of %s: %w", e.Type, e.MessageID, err))
				log.ErrorContext(ctx, "suppress failed", "type", e.Type, "ses_message", e.MessageID, "err", err)
				continue
			}
			log.InfoContext(ctx, "address suppressed", "type", e.Type, "email", s.Email, "reason", s.Reason, "ses_message", e.MessageID)
		}
	}
	return errors.Join(errs...)
}
