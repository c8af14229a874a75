// Package sesmailer sends mail with the Amazon SES v2 API (SendEmail with
// Simple content): HTML and text parts, the pictures the HTML shows as
// inline attachments, one-click List-Unsubscribe (RFC 8058), a
// configuration set and message tags for SES events (SPEC §4).
//
// It calls SendEmail through package awsapi (a signed REST-JSON request,
// the SDK's endpoint and retries) with request types of its own rather
// than through the SDK's sesv2 client: importing service/sesv2 ran its
// schema registry's init, 0.79 ms, at every cold start of the functions
// that send mail (GODEBUG=inittrace=1; see package awsapi).
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

	"github.com/pbmgames/pbm/infra/awsapi"
	"github.com/pbmgames/pbm/infra/config"
	"github.com/pbmgames/pbm/infra/mailer"
)

const charset = "UTF-8"

// Sender sends messages through SES. It is safe for concurrent use.
type Sender struct {
	client *awsapi.Client
	from   string
	cfgSet string
}

var _ mailer.Sender = (*Sender)(nil)

// New returns a Sender that sends through client (NewClient) from the
// address from (a verified SES identity, optionally with a display name:
// "PBM <noreply@pbm.example>") with the configuration set
// configurationSet, if not empty.
func New(client *awsapi.Client, from, configurationSet string) *Sender {
	return &Sender{client: client, from: from, cfgSet: configurationSet}
}

// NewClient returns an SES v2 client with the region, credentials,
// endpoint (AWS_ENDPOINT_URL_SESV2, AWS_ENDPOINT_URL, else the region's)
// and HTTP client of cfg; optFns adjust its options.
func NewClient(cfg aws.Config, optFns ...func(*awsapi.Options)) *awsapi.Client {
	return awsapi.New(cfg, awsapi.SESv2, optFns...)
}

// NewLocalClient returns an SES v2 client for a local server at endpoint
// ("http://127.0.0.1:P", e.g. aws-ses-v2-local), with dummy credentials
// and region us-east-1; optFns adjust its options.
func NewLocalClient(endpoint string, optFns ...func(*awsapi.Options)) *awsapi.Client {
	return NewClient(config.LocalAWS(endpoint), optFns...)
}

// ErrInvalid marks a message that cannot be sent as it is (no sender or
// recipient, a malformed address or header). Such errors are permanent.
var ErrInvalid = errors.New("invalid message")

// Send sends m. A failure is wrapped with the message's id; IsPermanent
// tells a refusal of this message from a failure worth retrying.
func (s *Sender) Send(ctx context.Context, m mailer.Message) error {
	in, err := s.input(m)
	if err == nil {
		err = s.client.REST(ctx, "SendEmail", http.MethodPost, "/v2/email/outbound-emails", in, nil)
	}
	if err != nil {
		return fmt.Errorf("sesmailer: send %s to %s: %w", m.ID, m.To, err)
	}
	return nil
}

// The members of SendEmail's input that are sent, as SES v2 names them.
type (
	sendEmailInput struct {
		FromEmailAddress     string
		Destination          destination
		Content              emailContent
		EmailTags            []MessageTag `json:",omitempty"`
		ConfigurationSetName string       `json:",omitempty"`
	}
	destination  struct{ ToAddresses []string }
	emailContent struct{ Simple *message }
	message      struct {
		Subject     content
		Body        body
		Headers     []messageHeader `json:",omitempty"`
		Attachments []attachment    `json:",omitempty"`
	}
	content struct{ Data, Charset string }
	body    struct {
		Text *content `json:",omitempty"`
		Html *content `json:",omitempty"`
	}
	messageHeader struct{ Name, Value string }
	attachment    struct {
		FileName                string
		RawContent              []byte // base64 in the JSON
		ContentType             string
		ContentDisposition      string
		ContentId               string
		ContentTransferEncoding string
	}
	// MessageTag is a tag of a message for SES events.
	MessageTag struct{ Name, Value string }
)

// input builds the SendEmail request for m.
func (s *Sender) input(m mailer.Message) (*sendEmailInput, error) {
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

	msg := &message{Subject: content{Data: m.Subject, Charset: charset}}
	if m.Text != "" {
		msg.Body.Text = &content{Data: m.Text, Charset: charset}
	}
	if m.HTML != "" {
		msg.Body.Html = &content{Data: m.HTML, Charset: charset}
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
		msg.Headers = []messageHeader{
			{Name: "List-Unsubscribe", Value: "<" + m.Unsubscribe + ">"},
			{Name: "List-Unsubscribe-Post", Value: "List-Unsubscribe=One-Click"},
		}
	}
	return &sendEmailInput{
		FromEmailAddress:     from,
		Destination:          destination{ToAddresses: []string{to}},
		Content:              emailContent{Simple: msg},
		EmailTags:            Tags(m.Tags),
		ConfigurationSetName: s.cfgSet,
	}, nil
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
func inlineAttachment(p mailer.Inline) (attachment, error) {
	if p.ContentID == "" || !headerSafe(p.ContentID) || strings.ContainsAny(p.ContentID, "<> ") {
		return attachment{}, fmt.Errorf("content id %q is not a plain ASCII token", p.ContentID)
	}
	if len(p.Data) == 0 {
		return attachment{}, fmt.Errorf("%s has no data", p.ContentID)
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
	return attachment{
		FileName:                name,
		RawContent:              p.Data,
		ContentType:             ctype,
		ContentDisposition:      "INLINE",
		ContentId:               p.ContentID,
		ContentTransferEncoding: "BASE64",
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
func Tags(tags map[string]string) []MessageTag {
	var out []MessageTag
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		name, value := SanitizeTag(k), SanitizeTag(tags[k])
		if name == "" || value == "" {
			continue
		}
		out = append(out, MessageTag{Name: name, Value: value})
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
	// The service's error (awsapi.APIError, or an SDK error where a test
	// makes one).
	var api interface{ ErrorCode() string }
	if !errors.As(err, &api) {
		return false
	}
	if permanentCodes[api.ErrorCode()] {
		return true
	}
	// A bare 400 that names no error (as a local server answers a request
	// it refuses) is a bad request too: awsapi then gives the status's
	// text as the code.
	var ae *awsapi.APIError
	return errors.As(err, &ae) && ae.Status == http.StatusBadRequest && ae.Code == http.StatusText(http.StatusBadRequest)
}
