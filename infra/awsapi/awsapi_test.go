package awsapi

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/pbmgames/pbm/infra/awsapi/awsapitest"
)

// secretKey stands for a secret an answer may carry: no error quotes it.
const secretKey = "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldC0xMjM0NQ"

// getParameterOutput is the part of SSM's GetParameter's answer read.
type getParameterOutput struct {
	Parameter *struct{ Type, Value string }
}

// getParameterInput is SSM's GetParameter's input.
type getParameterInput = map[string]string

func TestJSONAPIErrors(t *testing.T) {
	tests := []struct {
		name     string
		answers  []string // "status body", one a request
		requests int
		wantErr  string // "" for success
	}{
		{name: "not found: not retried", answers: []string{`400 {"__type":"ParameterNotFound","message":""}`}, requests: 1, wantErr: "GetParameter: ParameterNotFound (HTTP 400) [request req-1]"},
		{name: "access denied with a namespaced type", answers: []string{`400 {"__type":"com.amazon.coral.service#AccessDeniedException","Message":"User is not authorized"}`}, requests: 1, wantErr: "AccessDeniedException (HTTP 400): User is not authorized"},
		{name: "server error, then success", answers: []string{`500 {"__type":"InternalServerError"}`, `200 {"Parameter":{"Type":"SecureString","Value":"v"}}`}, requests: 2},
		{name: "throttled throughout", answers: []string{`400 {"__type":"ThrottlingException"}`, `400 {"__type":"ThrottlingException"}`, `400 {"__type":"ThrottlingException"}`}, requests: 3, wantErr: "ThrottlingException"},
		{name: "not JSON", answers: []string{`502 <html>bad gateway</html>`, `502 x`, `502 x`}, requests: 3, wantErr: "Bad Gateway (HTTP 502)"},
		{name: "undecodable answer, value not quoted", answers: []string{`200 {"Parameter":{"Type":"SecureString","Value":["` + secretKey + `"]}}`}, requests: 1, wantErr: "decode answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, n := awsapitest.JSONServer(t, "1.1", "ssm", "AmazonSSM", func(i int, _ map[string]any) (int, string) {
				status, body, _ := strings.Cut(tt.answers[i-1], " ")
				code, _ := strconv.Atoi(status)
				return code, body
			})
			api := New(awsapitest.Config(srv.URL), SSM, func(o *Options) {
				o.Pause = func(context.Context, time.Duration) error { return nil }
			})
			var out getParameterOutput
			err := api.JSON(context.Background(), "GetParameter", getParameterInput{"Name": "/p"}, &out)
			if int(n.Load()) != tt.requests {
				t.Errorf("%d requests, want %d", n.Load(), tt.requests)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("call: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("call: %v, want an error with %q", err, tt.wantErr)
			case err != nil && strings.Contains(err.Error(), secretKey):
				t.Fatalf("error quotes the answer: %v", err)
			}
		})
	}
}

func TestJSONAPIEndpoint(t *testing.T) {
	for region, want := range map[string]string{
		"eu-west-1":      "https://ssm.eu-west-1.amazonaws.com/",
		"cn-north-1":     "https://ssm.cn-north-1.amazonaws.com.cn/",
		"us-gov-west-1":  "https://ssm.us-gov-west-1.amazonaws.com/",
		"evil.com/x":     "",
		"":               "",
		"eu-central-1 ":  "",
		"ap-southeast-2": "https://ssm.ap-southeast-2.amazonaws.com/",
	} {
		got, err := New(aws.Config{Region: region}, SSM).Endpoint()
		if got != want || (want == "") != (err != nil) {
			t.Errorf("region %q: endpoint %q, %v; want %q", region, got, err, want)
		}
	}
	got, _ := New(aws.Config{Region: "eu-west-1", BaseEndpoint: aws.String("http://127.0.0.1:4566/")}, SSM).Endpoint()
	if got != "http://127.0.0.1:4566/" {
		t.Errorf("AWS_ENDPOINT_URL: endpoint %q", got)
	}
}

func TestJSONAPICanceled(t *testing.T) {
	srv, n := awsapitest.JSONServer(t, "1.1", "ssm", "AmazonSSM", func(int, map[string]any) (int, string) { return 503, `{}` })
	ctx, cancel := context.WithCancel(context.Background())
	api := New(awsapitest.Config(srv.URL), SSM, func(o *Options) {
		o.Pause = func(ctx context.Context, _ time.Duration) error { cancel(); return ctx.Err() }
	})
	var out getParameterOutput
	if err := api.JSON(ctx, "GetParameter", getParameterInput{"Name": "/p"}, &out); err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("call = %v, want the cancellation", err)
	}
	if n.Load() != 1 {
		t.Errorf("%d requests after cancel, want 1", n.Load())
	}
}

// TestREST: a REST-JSON call is the method on the path under the
// endpoint, its JSON body signed for the service's signing name, with no
// X-Amz-Target; the error code comes from X-Amzn-ErrorType.
func TestREST(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.URL.Path != "/v2/email/outbound-emails" {
			t.Errorf("%s %s", r.Method, r.URL.Path)
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/json" || r.Header.Get("X-Amz-Target") != "" {
			t.Errorf("Content-Type %q, X-Amz-Target %q", ct, r.Header.Get("X-Amz-Target"))
		}
		awsapitest.VerifySigV4(t, r, body, "ses", "content-type")
		if string(body) != `{"A":"b"}` {
			t.Errorf("body %s", body)
		}
		if n.Add(1) == 1 {
			w.Header().Set("X-Amzn-ErrorType", "MessageRejected:http://internal.amazon.com/coral/com.amazonaws.sesv2/")
			w.WriteHeader(400)
			io.WriteString(w, `{"message":"Email address is not verified."}`)
			return
		}
		io.WriteString(w, `{"MessageId":"m1"}`)
	}))
	defer srv.Close()
	c := New(awsapitest.Config(srv.URL), SESv2)
	err := c.REST(context.Background(), "SendEmail", http.MethodPost, "/v2/email/outbound-emails", map[string]string{"A": "b"}, nil)
	var ae *APIError
	if !errors.As(err, &ae) || ae.Code != "MessageRejected" || ae.Message != "Email address is not verified." || ae.Retryable() {
		t.Fatalf("refusal: %#v", err)
	}
	var out struct{ MessageId string }
	if err := c.REST(context.Background(), "SendEmail", http.MethodPost, "/v2/email/outbound-emails", map[string]string{"A": "b"}, &out); err != nil || out.MessageId != "m1" {
		t.Fatalf("send: %v, %+v", err, out)
	}
	if err := c.JSON(context.Background(), "SendEmail", nil, nil); err == nil {
		t.Error("a JSON call of a REST service went out")
	}
}

// TestBackoff: the waits grow from the service's base, from a second
// after throttling, and stay under 20 s.
func TestBackoff(t *testing.T) {
	c := New(aws.Config{}, DynamoDB)
	throttled := &APIError{Code: "ThrottlingException", Status: 400}
	for i := 1; i <= 12; i++ {
		for range 20 {
			if d := c.backoff(i, errors.New("network")); d < 0 || d > min(25*time.Millisecond<<(i-1), 20*time.Second) {
				t.Fatalf("retry %d after a network error: %v", i, d)
			}
			if d := c.backoff(i, throttled); d < 0 || d > min(time.Second<<(i-1), 20*time.Second) {
				t.Fatalf("retry %d after throttling: %v", i, d)
			}
		}
	}
}
