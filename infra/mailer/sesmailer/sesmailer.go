// Package sesmailer sends mail with the Amazon SES v2 API (SendEmail with
// Simple content): HTML and text parts, the pictures the HTML shows as
// inline attachments, one-click List-Unsubscribe (RFC 8058), a
// configuration set and message tags for SES events (SPEC §4).
//
// It sends through the AWS SDK's SES v2 client (service/sesv2), and tells
// a refusal of the message from a failure worth retrying by the SDK's
// typed errors (IsPermanent).
package sesmailer

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"mime"
	"net/http"
	"net/mail"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"
	"github.com/aws/smithy-go"

	"github.com/pbmgames/pbm/infra/mailer"
)

const charset = "UTF-8"

// Sender sends messages through SES. It is safe for concurrent use.
type Sender struct {
	client *sesv2.Client
	from   string
	cfgSet string
}

var _ mailer.Sender = (*Sender)(nil)

// New returns a Sender that sends through client (sesv2.NewFromConfig of
// the function's AWS configuration) from the address from (a verified SES
// identity, optionally with a display name: "PBM <noreply@pbm.example>")
// with the configuration set configurationSet, if not empty.
func New(client *sesv2.Client, from, configurationSet string) *Sender {
	return &Sender{client: client, from: from, cfgSet: configurationSet}
}

// ErrInvalid marks a message that cannot be sent as it is (no sender or
// recipient, a malformed address or header). Such errors are permanent.
var ErrInvalid = errors.New("invalid message")

// Send sends m. A failure is wrapped with the message's id; IsPermanent
// tells a refusal of this message from a failure worth retrying.
func (s *Sender) Send(ctx context.Context, m mailer.Message) error {
	in, err := s.input(m)
	if err == nil {
		_, err = s.client.SendEmail(ctx, in)
	}
	if err != nil {
		return fmt.Errorf("sesmailer: send %s to %s: %w", m.ID, m.To, err)
	}
	return nil
}

// input builds the SendEmail request for m.
func (s *Sender) input(m mailer.Message) (*sesv2.SendEmailInput, error) {
	if strings.TrimSpace(s.from) == "" {
		return nil, fmt.Errorf("%w: no From address configured", ErrInvalid)
	}
	from, err := encodeAddress(s.from)
	if err != nil {
		return nil, fmt.Errorf("%w: From address %q: %v", ErrInvalid, s.from, err)
	}
	to, err := encodeAddress(m.To)
	if err != nil {
		return nil, fmt.Errorf("%w: recipient %q: %v", ErrInvalid, m.To, err)
	}
	if m.Subject == "" {
		return nil, fmt.Errorf("%w: no subject", ErrInvalid)
	}

	msg := &types.Message{Subject: content(m.Subject), Body: &types.Body{}}
	if m.Text != "" {
		msg.Body.Text = content(m.Text)
	}
	if m.HTML != "" {
		msg.Body.Html = content(m.HTML)
	}
	for i, p := range m.Inline {
		att, err := inlineAttachment(p)
		if err != nil {
			return nil, fmt.Errorf("%w: inline picture %d: %v", ErrInvalid, i, err)
		}
		msg.Attachments = append(msg.Attachments, att)
	}
	if m.Unsubscribe != "" {
		if !headerSafe(m.Unsubscribe) || strings.ContainsAny(m.Unsubscribe, "<> ") {
			return nil, fmt.Errorf("%w: unsubscribe URL is not a plain ASCII URL", ErrInvalid)
		}
		msg.Headers = []types.MessageHeader{
			{Name: aws.String("List-Unsubscribe"), Value: aws.String("<" + m.Unsubscribe + ">")},
			{Name: aws.String("List-Unsubscribe-Post"), Value: aws.String("List-Unsubscribe=One-Click")},
		}
	}
	in := &sesv2.SendEmailInput{
		FromEmailAddress: aws.String(from),
		Destination:      &types.Destination{ToAddresses: []string{to}},
		Content:          &types.EmailContent{Simple: msg},
		EmailTags:        Tags(m.Tags),
	}
	if s.cfgSet != "" {
		in.ConfigurationSetName = aws.String(s.cfgSet)
	}
	return in, nil
}

// content is a part's text, in UTF-8.
func content(s string) *types.Content {
	return &types.Content{Data: aws.String(s), Charset: aws.String(charset)}
}

// encodeAddress checks one address and returns it in the form SES takes:
// a bare address as it is, a display name MIME-encoded when not ASCII.
func encodeAddress(s string) (string, error) {
	a, err := mail.ParseAddress(s)
	if err != nil {
		return "", err
	}
	if a.Name == "" {
		return a.Address, nil
	}
	return a.String(), nil
}

// inlineAttachment turns an inline picture into an INLINE attachment that the
// HTML part shows as cid:<ContentID>.
func inlineAttachment(p mailer.Inline) (types.Attachment, error) {
	if p.ContentID == "" || !headerSafe(p.ContentID) || strings.ContainsAny(p.ContentID, "<> ") {
		return types.Attachment{}, fmt.Errorf("content id %q is not a plain ASCII token", p.ContentID)
	}
	if len(p.Data) == 0 {
		return types.Attachment{}, fmt.Errorf("%s has no data", p.ContentID)
	}
	ctype := p.ContentType
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	name := p.FileName
	if name == "" {
		name = p.ContentID
		if exts, _ := mime.ExtensionsByType(ctype); len(exts) > 0 {
			name += exts[0]
		}
	}
	return types.Attachment{
		FileName:                aws.String(name),
		RawContent:              p.Data,
		ContentType:             aws.String(ctype),
		ContentDisposition:      types.AttachmentContentDispositionInline,
		ContentId:               aws.String(p.ContentID),
		ContentTransferEncoding: types.AttachmentContentTransferEncodingBase64,
	}, nil
}

// headerSafe reports whether s is printable ASCII, as SES wants of header
// values.
func headerSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// maxTagLen is SES's limit on a tag's name and value.
const maxTagLen = 256

// Tags turns a message's tags into SES message tags, sorted by name. SES
// allows only ASCII letters, digits, '_' and '-' in names and values, at
// most 256 of them: every other character becomes '_' and longer ones are
// cut. A tag whose name or value ends up empty is left out.
func Tags(tags map[string]string) []types.MessageTag {
	var out []types.MessageTag
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		name, value := SanitizeTag(k), SanitizeTag(tags[k])
		if name == "" || value == "" {
			continue
		}
		out = append(out, types.MessageTag{Name: aws.String(name), Value: aws.String(value)})
	}
	return out
}

// SanitizeTag maps s to the characters SES allows in a tag name or value.
func SanitizeTag(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() == maxTagLen {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// IsPermanent reports whether err means this message will never be
// accepted as it is, so it should not be retried: an invalid message
// (ErrInvalid), SES's MessageRejected (an unverified recipient in the
// sandbox, a virus) or BadRequestException (a malformed address, a
// header SES refuses), or a 400 answer that names no error SES's model
// knows (as a local server answers a request it refuses). Every other
// error is transient: throttling (TooManyRequestsException,
// LimitExceededException), network and server errors, and the problems
// of the account that are mended there while the mail waits
// (SendingPausedException, AccountSuspendedException,
// MailFromDomainNotVerifiedException, a missing configuration set's
// NotFoundException). The errors are told apart by their types.
func IsPermanent(err error) bool {
	if err == nil {
		return false
	}
	var (
		rejected *types.MessageRejected
		bad      *types.BadRequestException
		unknown  *smithy.GenericAPIError
		resp     *awshttp.ResponseError
	)
	switch {
	case errors.Is(err, ErrInvalid), errors.As(err, &rejected), errors.As(err, &bad):
		return true
	case errors.As(err, &unknown) && errors.As(err, &resp):
		return resp.HTTPStatusCode() == http.StatusBadRequest
	}
	return false
}
