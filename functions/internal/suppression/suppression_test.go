package suppression

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"
)

func sample(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func unix(s string) int64 {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t.Unix()
}

var received = time.Date(2024, 6, 9, 12, 0, 0, 0, time.UTC)

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		message string
		want    Event
		wantErr string
	}{
		{
			name:    "permanent bounce: every recipient, lower-case, with SES's detail",
			message: sample(t, "permanent_bounce.json"),
			want: Event{Type: "Bounce", MessageID: "0102018fd2a1a9e7-3b1c8f2e-5d4a-4b6c-9e8f-7a6b5c4d3e2f-000000", Suppress: []Suppression{
				{Email: "ann.smith@example.org", At: unix("2024-06-01T10:15:31Z"),
					Reason: "bounce: Permanent/General: 5.1.1: smtp; 550 5.1.1 <Ann.Smith@Example.ORG>: Recipient address rejected: User unknown in virtual mailbox table"},
				{Email: "bob@example.net", At: unix("2024-06-01T10:15:31Z"), Reason: "bounce: Permanent/General: 5.1.1: smtp; 550 5.1.1 user unknown"},
			}},
		},
		{
			name:    "transient bounce: ignored",
			message: sample(t, "transient_bounce.json"),
			want:    Event{Type: "Bounce", MessageID: "0102018fd2b3aa11-9f8e7d6c-5b4a-4392-8180-7f6e5d4c3b2a-000000", Ignored: "transient bounce"},
		},
		{
			name:    "complaint",
			message: sample(t, "complaint.json"),
			want: Event{Type: "Complaint", MessageID: "0102018fd2c5bb22-8e7d6c5b-4a39-4281-a0b1-c2d3e4f5a6b7-000000", Suppress: []Suppression{
				{Email: "dave@example.com", Reason: "complaint: abuse", At: unix("2024-06-02T08:30:00Z")},
			}},
		},
		{
			name:    "bounce on the account's suppression list, no diagnostic code",
			message: sample(t, "suppressed_bounce.json"),
			want: Event{Type: "Bounce", MessageID: "0102018fd2d7cc33-7d6c5b4a-3928-4170-b1c2-d3e4f5a6b7c8-000000", Suppress: []Suppression{
				{Email: "erin@example.org", Reason: "bounce: Permanent/OnAccountSuppressionList: 5.1.1", At: unix("2024-06-03T00:00:01Z")},
			}},
		},
		{
			name:    "identity feedback notification (notificationType) read alike",
			message: sample(t, "feedback_notification.json"),
			want: Event{Type: "Complaint", MessageID: "0102018fd2e9dd44-6c5b4a39-2817-4060-c2d3-e4f5a6b7c8d9-000000", Suppress: []Suppression{
				{Email: "frank@example.com", Reason: "complaint: abuse", At: unix("2024-06-04T12:00:05Z")},
			}},
		},
		{
			name:    "delivery: ignored",
			message: sample(t, "delivery.json"),
			want:    Event{Type: "Delivery", MessageID: "0102018fd2fbee55-5b4a3928-1706-4f5e-d3e4-f5a6b7c8d9e0-000000", Ignored: "event type Delivery"},
		},
		{
			name:    "undetermined bounce: ignored",
			message: `{"eventType":"Bounce","bounce":{"bounceType":"Undetermined","bounceSubType":"Undetermined","bouncedRecipients":[{"emailAddress":"h@example.com"}]},"mail":{"messageId":"m1"}}`,
			want:    Event{Type: "Bounce", MessageID: "m1", Ignored: "undetermined bounce"},
		},
		{
			name:    "complaint without timestamps or feedback type: the mail's time, then SNS's",
			message: `{"eventType":"Complaint","complaint":{"complainedRecipients":[{"emailAddress":"i@example.com"},{"emailAddress":"I@EXAMPLE.COM"}],"complaintSubType":"OnAccountSuppressionList"},"mail":{"messageId":"m2"}}`,
			want: Event{Type: "Complaint", MessageID: "m2", Suppress: []Suppression{
				{Email: "i@example.com", Reason: "complaint: OnAccountSuppressionList", At: received.Unix()},
			}},
		},
		{
			name:    "SES's test message to a new topic: ignored",
			message: `{"notificationType":"AmazonSnsSubscriptionSucceeded","message":"You have successfully subscribed your Amazon SNS topic 'arn:aws:sns:eu-west-1:123456789012:pbm-MailEventsTopic-1ABC' to receive 'Bounce' notifications from Amazon SES for configuration set 'pbm-mail'."}`,
			want:    Event{Type: "AmazonSnsSubscriptionSucceeded", Ignored: "event type AmazonSnsSubscriptionSucceeded"},
		},
		{name: "not JSON", message: "Bounce!", wantErr: "not an SES event"},
		{name: "no type", message: `{"mail":{}}`, wantErr: "no eventType"},
		{name: "bounce object missing", message: `{"eventType":"Bounce","mail":{}}`, wantErr: "without a bounce object"},
		{name: "complaint object missing", message: `{"eventType":"Complaint","mail":{}}`, wantErr: "without a complaint object"},
		{name: "permanent bounce, no usable address", message: `{"eventType":"Bounce","bounce":{"bounceType":"Permanent","bouncedRecipients":[{"emailAddress":"not an address"},{}]}}`, wantErr: "without a recipient"},
		{name: "complaint, no recipients", message: `{"eventType":"Complaint","complaint":{"complainedRecipients":[]}}`, wantErr: "without a recipient"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.message, received)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse = %+v, %v; want an error with %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse =\n %+v\nwant\n %+v", got, tt.want)
			}
		})
	}
}

func TestReasonClipped(t *testing.T) {
	long := strings.Repeat("ошибка ", 100) // 2-byte runes, to be cut between bytes
	msg := `{"eventType":"Bounce","bounce":{"bounceType":"Permanent","bounceSubType":"General","bouncedRecipients":[{"emailAddress":"j@example.com","diagnosticCode":"smtp; 550\r\n` + long + `"}]}}`
	e, err := Parse(msg, received)
	if err != nil {
		t.Fatal(err)
	}
	r := e.Suppress[0].Reason
	if len(r) > maxReason+len("…") || !strings.HasSuffix(r, "…") || strings.ContainsAny(r, "\r\n") || !strings.HasPrefix(r, "bounce: Permanent/General: smtp; 550 ошибка") {
		t.Errorf("reason %q (%d bytes): want one line of at most %d bytes, ending in …", r, len(r), maxReason)
	}
	if !utf8.ValidString(r) {
		t.Errorf("reason %q is not valid UTF-8", r)
	}
}

type call struct {
	Email, Reason string
	At            int64
}

// TestHandle runs the SNS event as Lambda delivers it (testdata/sns_event.json:
// a permanent bounce to two addresses and a complaint), plus records that
// are dropped or ignored.
func TestHandle(t *testing.T) {
	var ev events.SNSEvent
	if err := json.Unmarshal([]byte(sample(t, "sns_event.json")), &ev); err != nil {
		t.Fatal(err)
	}
	extra := ev.Records[0]
	extra.SNS.Message = "garbage"
	transient := ev.Records[0]
	transient.SNS.Message = sample(t, "transient_bounce.json")
	ev.Records = append(ev.Records, extra, transient)

	var calls []call
	suppress := func(_ context.Context, email, reason string, at int64) error {
		calls = append(calls, call{email, reason, at})
		return nil
	}
	if err := Handle(context.Background(), ev, suppress, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatalf("Handle: %v", err)
	}
	want := []call{
		{"ann.smith@example.org", "bounce: Permanent/General: 5.1.1: smtp; 550 5.1.1 <Ann.Smith@Example.ORG>: Recipient address rejected: User unknown in virtual mailbox table", unix("2024-06-01T10:15:31Z")},
		{"bob@example.net", "bounce: Permanent/General: 5.1.1: smtp; 550 5.1.1 user unknown", unix("2024-06-01T10:15:31Z")},
		{"dave@example.com", "complaint: abuse", unix("2024-06-02T08:30:00Z")},
	}
	if !reflect.DeepEqual(calls, want) {
		t.Errorf("Suppress calls\n %+v\nwant\n %+v", calls, want)
	}
}

func TestHandleSuppressFails(t *testing.T) {
	var ev events.SNSEvent
	if err := json.Unmarshal([]byte(sample(t, "sns_event.json")), &ev); err != nil {
		t.Fatal(err)
	}
	var tried []string
	suppress := func(_ context.Context, email, _ string, _ int64) error {
		tried = append(tried, email)
		if email == "bob@example.net" {
			return errors.New("ProvisionedThroughputExceededException")
		}
		return nil
	}
	err := Handle(context.Background(), ev, suppress, slog.New(slog.DiscardHandler))
	if err == nil || !strings.Contains(err.Error(), "ProvisionedThroughputExceededException") {
		t.Fatalf("Handle = %v, want the failure (Lambda retries the invocation)", err)
	}
	if want := []string{"ann.smith@example.org", "bob@example.net", "dave@example.com"}; !reflect.DeepEqual(tried, want) {
		t.Errorf("tried %q, want %q (the others still suppressed)", tried, want)
	}
}
