package sesmailer_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net"
	"net/http"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/pbmgames/pbm/infra/mailer"
	"github.com/pbmgames/pbm/infra/mailer/sesmailer"
	"github.com/pbmgames/pbm/infra/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// stored is what aws-ses-v2-local keeps of one sent mail (GET /store).
type stored struct {
	MessageID   string   `json:"messageId"`
	From        string   `json:"from"`
	ReplyTo     []string `json:"replyTo"`
	Destination struct {
		To  []string `json:"to"`
		Cc  []string `json:"cc"`
		Bcc []string `json:"bcc"`
	} `json:"destination"`
	Subject string `json:"subject"`
	Body    struct {
		HTML string `json:"html"`
		Text string `json:"text"`
	} `json:"body"`
	Attachments []struct {
		Content            string `json:"content"` // base64
		ContentType        string `json:"contentType"`
		ContentDisposition string `json:"contentDisposition"`
		ContentID          string `json:"contentId"`
		Filename           string `json:"filename"`
		Size               int    `json:"size"`
	} `json:"attachments"`
	Headers []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"headers"`
	At int64 `json:"at"`
}

// sesStore reads and empties the local server's store.
type sesStore struct {
	t        *testing.T
	endpoint string
}

func newStore(t *testing.T) (*sesStore, string) {
	t.Helper()
	ep := testenv.SESLocal(t)
	s := &sesStore{t: t, endpoint: ep}
	s.clear()
	return s, ep
}

func (s *sesStore) clear() {
	s.t.Helper()
	resp, err := http.Post(s.endpoint+"/clear-store", "application/json", nil)
	if err != nil {
		s.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		s.t.Fatalf("clear-store: %s", resp.Status)
	}
}

func (s *sesStore) emails() []stored {
	s.t.Helper()
	resp, err := http.Get(s.endpoint + "/store")
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		s.t.Fatalf("store: %s", resp.Status)
	}
	var body struct {
		Emails []stored `json:"emails"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		s.t.Fatal(err)
	}
	return body.Emails
}

func pngPicture(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(0, 0, color.RGBA{200, 30, 30, 255})
	img.Set(2, 1, color.RGBA{30, 30, 200, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestSendArrivesAsSent(t *testing.T) {
	st, ep := newStore(t)
	s := sesmailer.New(testenv.SESClient(t, ep), "Игры по почте <noreply@pbm.example>", "pbm-mail")
	pic := pngPicture(t)
	msg := mailer.Message{
		ID:          "g1/m1",
		To:          "anna@example.org",
		Subject:     "«Вестерн»: ваш ход",
		Text:        "Анна,\n\nВаш ход. Открыть игру:\nhttp://localhost:8080/g/g1?t=abc&lang=ru\n",
		HTML:        `<p>Анна, ваш ход.</p><p><img src="cid:board" alt="Доска"></p><p><a href="http://localhost:8080/g/g1?t=abc&amp;lang=ru">Открыть игру</a></p>`,
		Unsubscribe: "http://localhost:8080/unsubscribe?t=xyz",
		Inline:      []mailer.Inline{{ContentID: "board", ContentType: "image/png", FileName: "board.png", Data: pic}},
		Tags:        map[string]string{"game": "g1", "kind": "turn"},
	}
	if err := s.Send(ctx(t), msg); err != nil {
		t.Fatal(err)
	}

	got := st.emails()
	if len(got) != 1 {
		t.Fatalf("store has %d mails, want 1", len(got))
	}
	e := got[0]
	if e.Subject != msg.Subject {
		t.Errorf("subject %q, want %q", e.Subject, msg.Subject)
	}
	if len(e.Destination.To) != 1 || e.Destination.To[0] != msg.To {
		t.Errorf("to %q, want [%q]", e.Destination.To, msg.To)
	}
	// The display name goes out MIME-encoded, as SES wants it.
	if strings.Contains(e.From, "Игры") {
		t.Errorf("from %q: the display name is not MIME-encoded", e.From)
	}
	if from, err := mail.ParseAddress(e.From); err != nil || from.Name != "Игры по почте" || from.Address != "noreply@pbm.example" {
		t.Errorf("from %q parses as %v, %v", e.From, from, err)
	}
	if e.Body.Text != msg.Text {
		t.Errorf("text %q, want %q", e.Body.Text, msg.Text)
	}
	if e.Body.HTML != msg.HTML {
		t.Errorf("html %q, want %q", e.Body.HTML, msg.HTML)
	}
	if len(e.Attachments) != 1 {
		t.Fatalf("%d attachments, want 1", len(e.Attachments))
	}
	a := e.Attachments[0]
	data, err := base64.StdEncoding.DecodeString(a.Content)
	if err != nil {
		t.Fatalf("attachment content: %v", err)
	}
	if !bytes.Equal(data, pic) || a.Size != len(pic) {
		t.Errorf("attachment has %d bytes (size %d), not the %d sent", len(data), a.Size, len(pic))
	}
	if a.ContentID != "board" || a.ContentType != "image/png" || a.ContentDisposition != "INLINE" || a.Filename != "board.png" {
		t.Errorf("attachment id %q type %q disposition %q name %q, want board, image/png, INLINE, board.png",
			a.ContentID, a.ContentType, a.ContentDisposition, a.Filename)
	}
	headers := map[string]string{}
	for _, h := range e.Headers {
		headers[h.Name] = h.Value
	}
	if got, want := headers["List-Unsubscribe"], "<http://localhost:8080/unsubscribe?t=xyz>"; got != want {
		t.Errorf("List-Unsubscribe %q, want %q", got, want)
	}
	if got, want := headers["List-Unsubscribe-Post"], "List-Unsubscribe=One-Click"; got != want {
		t.Errorf("List-Unsubscribe-Post %q, want %q", got, want)
	}
}

// recorder is an HTTP client that keeps the JSON of each request it passes
// on.
type recorder struct {
	bodies []map[string]any
}

func (r *recorder) Do(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body.Close()
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("request body: %w", err)
		}
		r.bodies = append(r.bodies, m)
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	return http.DefaultClient.Do(req)
}

// TestRequest checks what the server does not keep, the configuration set
// and the tags, in the request Send sends.
func TestRequest(t *testing.T) {
	st, ep := newStore(t)
	rec := &recorder{}
	client := testenv.SESClient(t, ep, func(o *sesv2.Options) { o.HTTPClient = rec })
	s := sesmailer.New(client, "noreply@pbm.example", "pbm-mail")
	err := s.Send(ctx(t), mailer.Message{
		ID: "g1/m2", To: "bob@example.org", Subject: "s", Text: "t",
		Tags: map[string]string{"game": "g/1 ü", "kind": "invite", "": "x", "empty": "", "long": strings.Repeat("a", 300)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(st.emails()); n != 1 {
		t.Fatalf("store has %d mails, want 1", n)
	}
	if len(rec.bodies) != 1 {
		t.Fatalf("%d requests, want 1", len(rec.bodies))
	}
	body := rec.bodies[0]
	if body["ConfigurationSetName"] != "pbm-mail" {
		t.Errorf("ConfigurationSetName %v", body["ConfigurationSetName"])
	}
	got, _ := json.Marshal(body["EmailTags"])
	want := `[{"Name":"game","Value":"g_1__"},{"Name":"kind","Value":"invite"},{"Name":"long","Value":"` + strings.Repeat("a", 256) + `"}]`
	if string(got) != want {
		t.Errorf("EmailTags %s\nwant %s", got, want)
	}
	simple, _ := body["Content"].(map[string]any)["Simple"].(map[string]any)
	if _, ok := simple["Headers"]; ok {
		t.Errorf("headers sent without an unsubscribe URL: %v", simple["Headers"])
	}
	if _, ok := simple["Body"].(map[string]any)["Html"]; ok {
		t.Error("an empty HTML part was sent")
	}
	if cs := simple["Subject"].(map[string]any)["Charset"]; cs != "UTF-8" {
		t.Errorf("subject charset %v", cs)
	}

	// Without a configuration set, none is named.
	rec.bodies = nil
	if err := sesmailer.New(client, "noreply@pbm.example", "").Send(ctx(t), mailer.Message{To: "bob@example.org", Subject: "s", Text: "t"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := rec.bodies[0]["ConfigurationSetName"]; ok {
		t.Error("ConfigurationSetName sent when none is set")
	}
}

func TestNoFromFailsClearly(t *testing.T) {
	st, ep := newStore(t)
	s := sesmailer.New(testenv.SESClient(t, ep), "", "")
	err := s.Send(ctx(t), mailer.Message{ID: "g1/m3", To: "bob@example.org", Subject: "s", Text: "t"})
	if err == nil {
		t.Fatal("send without From succeeded")
	}
	if !strings.Contains(err.Error(), "From") || !strings.Contains(err.Error(), "g1/m3") {
		t.Errorf("error %q names neither the From address nor the mail", err)
	}
	if !errors.Is(err, sesmailer.ErrInvalid) || !sesmailer.IsPermanent(err) {
		t.Errorf("error %q is not a permanent ErrInvalid", err)
	}
	if n := len(st.emails()); n != 0 {
		t.Errorf("store has %d mails, want none", n)
	}
}

func TestInvalidMessages(t *testing.T) {
	_, ep := newStore(t)
	s := sesmailer.New(testenv.SESClient(t, ep), "noreply@pbm.example", "")
	for name, m := range map[string]mailer.Message{
		"no recipient":     {Subject: "s", Text: "t"},
		"bad recipient":    {To: "not an address", Subject: "s", Text: "t"},
		"no subject":       {To: "bob@example.org", Text: "t"},
		"header injection": {To: "bob@example.org", Subject: "s", Text: "t", Unsubscribe: "http://x/u\r\nBcc: eve@example.org"},
		"picture without id": {To: "bob@example.org", Subject: "s", Text: "t",
			Inline: []mailer.Inline{{ContentType: "image/png", Data: []byte{1}}}},
	} {
		err := s.Send(ctx(t), m)
		if err == nil || !sesmailer.IsPermanent(err) {
			t.Errorf("%s: got %v, want a permanent error", name, err)
		}
	}
}

func TestServerRefusalIsPermanent(t *testing.T) {
	st, ep := newStore(t)
	s := sesmailer.New(testenv.SESClient(t, ep), "noreply@pbm.example", "")
	// No body at all: the server answers 400.
	err := s.Send(ctx(t), mailer.Message{ID: "g1/m4", To: "bob@example.org", Subject: "s"})
	if err == nil {
		t.Fatal("send without a body succeeded")
	}
	if !sesmailer.IsPermanent(err) {
		t.Errorf("server refusal %q is not permanent", err)
	}
	if !strings.Contains(err.Error(), "g1/m4") {
		t.Errorf("error %q does not name the mail", err)
	}
	if n := len(st.emails()); n != 0 {
		t.Errorf("store has %d mails, want none", n)
	}
}

func TestUnreachableIsTransient(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	client := testenv.SESClient(t, "http://"+addr, func(o *sesv2.Options) { o.RetryMaxAttempts = 1 })
	err = sesmailer.New(client, "noreply@pbm.example", "").Send(ctx(t), mailer.Message{To: "bob@example.org", Subject: "s", Text: "t"})
	if err == nil {
		t.Fatal("send to a closed port succeeded")
	}
	if sesmailer.IsPermanent(err) {
		t.Errorf("network failure %q counted as permanent", err)
	}
}

// TestIsPermanent: the SDK's errors as its client gives them (an
// operation error around the HTTP answer's error around the service's).
func TestIsPermanent(t *testing.T) {
	answered := func(status int, err error) error {
		return &awshttp.ResponseError{ResponseError: &smithyhttp.ResponseError{
			Response: &smithyhttp.Response{Response: &http.Response{StatusCode: status}}, Err: err}}
	}
	wrap := func(err error) error {
		return fmt.Errorf("sesmailer: send x: %w", &smithy.OperationError{ServiceID: "SESv2", OperationName: "SendEmail", Err: err})
	}
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{wrap(answered(400, &types.MessageRejected{Message: aws.String("Email address is not verified.")})), true},
		{wrap(answered(400, &types.BadRequestException{Message: aws.String("Illegal address")})), true},
		{wrap(answered(429, &types.TooManyRequestsException{})), false},
		{wrap(answered(400, &types.LimitExceededException{})), false},
		{wrap(answered(400, &types.SendingPausedException{})), false},
		{wrap(answered(400, &types.AccountSuspendedException{})), false},
		{wrap(answered(400, &types.MailFromDomainNotVerifiedException{})), false},
		{wrap(answered(404, &types.NotFoundException{})), false},
		{wrap(answered(500, &types.InternalServiceErrorException{})), false},
		{wrap(answered(400, &smithy.GenericAPIError{Code: "ValidationException"})), true},
		{wrap(answered(400, &smithy.GenericAPIError{Code: "UnknownError"})), true},
		{wrap(answered(503, &smithy.GenericAPIError{Code: "UnknownError"})), false},
		{wrap(&smithy.GenericAPIError{Code: "MessageRejected"}), false}, // a code alone, no answer: not matched by name
		{wrap(context.DeadlineExceeded), false},
		{wrap(&retry.MaxAttemptsError{Attempt: 3, Err: errors.New("connection refused")}), false},
		{wrap(sesmailer.ErrInvalid), true},
	} {
		if got := sesmailer.IsPermanent(c.err); got != c.want {
			t.Errorf("IsPermanent(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

func TestSanitizeTag(t *testing.T) {
	for in, want := range map[string]string{
		"game-1_A": "game-1_A",
		"g/1 ü":    "g_1__",
		"ход":      "___",
		"":         "",
	} {
		if got := sesmailer.SanitizeTag(in); got != want {
			t.Errorf("SanitizeTag(%q) = %q, want %q", in, got, want)
		}
	}
}
