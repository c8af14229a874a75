// Package sesmailer sends mail with the Amazon SES v2 API (SendEmail with
// Simple content): HTML and text parts, the pictures the HTML shows as
// inline attachments, one-click List-Unsubscribe (RFC 8058), a
// configuration set and message tags for SES events (SPEC §4).
package sesmailer

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"mime"
	"net/mail"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"
	"github.com/aws/smithy-go"

	"github.com/pbmgames/pbm/infra/config"
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

// New returns a Sender that sends from the address from (a verified SES
// identity, optionally with a display name: "PBM <noreply@pbm.example>")
// with the configuration set configurationSet, if not empty.
func New(client *sesv2.Client, from, configurationSet string) *Sender {
	return &Sender{client: client, from: from, cfgSet: configurationSet}
}

// NewLocalClient returns an SES v2 client for a local server at endpoint
// ("http://127.0.0.1:P", e.g. aws-ses-v2-local), with dummy credentials
// and region us-east-1; optFns adjust its options.
func NewLocalClient(endpoint string, optFns ...func(*sesv2.Options)) *sesv2.Client {
	return sesv2.NewFromConfig(config.LocalAWS(endpoint), optFns...)
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

	body := &types.Body{}
	if m.Text != "" {
		body.Text = &types.Content{Data: aws.String(m.Text), Charset: aws.String(charset)}
	}
	if m.HTML != "" {
		body.Html = &types.Content{Data: aws.String(m.HTML), Charset: aws.String(charset)}
	}
	msg := &types.Message{
		Subject: &types.Content{Data: aws.String(m.Subject), Charset: aws.String(charset)},
		Body:    body,
	}
	for i, p := range m.Inline {
		att, err := attachment(p)
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

// attachment turns an inline picture into an INLINE attachment that the
// HTML part shows as cid:<ContentID>.
func attachment(p mailer.Inline) (types.Attachment, error) {
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

// permanentCodes are the SES errors that refuse the message itself: sending
// it again fails the same way. (Paused sending, a suspended account, an
// unverified MAIL FROM domain or a missing configuration set are problems
// of the account, fixed there; the mail waits for the fix.)
var permanentCodes = map[string]bool{
	"MessageRejected":        true, // e.g. an unverified recipient in the sandbox, a virus
	"BadRequestException":    true, // e.g. a malformed address, a header SES refuses
	"ValidationException":    true,
	"SerializationException": true,
}

// IsPermanent reports whether err means this message will never be
// accepted as it is (an invalid or refused message or recipient), so it
// should not be retried; other errors (throttling, network, server
// errors, account problems) are transient.
func IsPermanent(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrInvalid) {
		return true
	}
	var params smithy.InvalidParamsError
	if errors.As(err, &params) {
		return true
	}
	var api smithy.APIError
	if !errors.As(err, &api) {
		return false
	}
	if permanentCodes[api.ErrorCode()] {
		return true
	}
	// A bare 400 with no error type the SDK knows (as a local server
	// answers a request it refuses) is a bad request too.
	var resp *awshttp.ResponseError
	if errors.As(err, &resp) && resp.HTTPStatusCode() == 400 {
		var generic *smithy.GenericAPIError
		return errors.As(err, &generic) && (generic.Code == "" || generic.Code == "UnknownError")
	}
	return false
}
