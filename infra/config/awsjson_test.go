package config

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

const (
	testKeyID  = "ASIAEXAMPLEKEYID"
	testSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	testToken  = "session-token"
)

func testAWS(endpoint string) aws.Config {
	return aws.Config{
		Region:       "eu-west-1",
		Credentials:  credentials.NewStaticCredentialsProvider(testKeyID, testSecret, testToken),
		BaseEndpoint: aws.String(endpoint),
	}
}

// verifySigV4 recomputes the request's SigV4 signature from the request as
// received (its own implementation of the algorithm) and compares it.
func verifySigV4(t *testing.T, r *http.Request, body []byte, service string) {
	t.Helper()
	auth := r.Header.Get("Authorization")
	const alg = "AWS4-HMAC-SHA256 "
	if !strings.HasPrefix(auth, alg) {
		t.Fatalf("Authorization %q is not SigV4", auth)
	}
	fields := map[string]string{}
	for _, f := range strings.Split(strings.TrimPrefix(auth, alg), ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(f), "=")
		fields[k] = v
	}
	date := r.Header.Get("X-Amz-Date")
	scope := date[:8] + "/eu-west-1/" + service + "/aws4_request"
	if fields["Credential"] != testKeyID+"/"+scope {
		t.Errorf("Credential %q, want %s/%s", fields["Credential"], testKeyID, scope)
	}
	signed := strings.Split(fields["SignedHeaders"], ";")
	for _, h := range []string{"content-type", "host", "x-amz-date", "x-amz-security-token", "x-amz-target"} {
		if !contains(signed, h) {
			t.Errorf("SignedHeaders %v lacks %s", signed, h)
		}
	}
	sort.Strings(signed)
	var canon strings.Builder
	for _, h := range signed {
		v := r.Header.Get(h)
		if h == "host" {
			v = r.Host
		}
		canon.WriteString(h + ":" + strings.TrimSpace(v) + "\n")
	}
	sum := sha256.Sum256(body)
	creq := strings.Join([]string{r.Method, "/", "", canon.String(), strings.Join(signed, ";"), hex.EncodeToString(sum[:])}, "\n")
	creqSum := sha256.Sum256([]byte(creq))
	toSign := "AWS4-HMAC-SHA256\n" + date + "\n" + scope + "\n" + hex.EncodeToString(creqSum[:])
	mac := func(key []byte, s string) []byte {
		h := hmac.New(sha256.New, key)
		h.Write([]byte(s))
		return h.Sum(nil)
	}
	k := mac([]byte("AWS4"+testSecret), date[:8])
	for _, s := range []string{"eu-west-1", service, "aws4_request"} {
		k = mac(k, s)
	}
	if want := hex.EncodeToString(mac(k, toSign)); fields["Signature"] != want {
		t.Errorf("Signature %s, want %s (canonical request:\n%s)", fields["Signature"], want, creq)
	}
	if got := r.Header.Get("X-Amz-Security-Token"); got != testToken {
		t.Errorf("X-Amz-Security-Token %q", got)
	}
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// fakeAWS serves the JSON 1.1 protocol: it checks each request (method,
// path, headers, signature) and answers with what answer returns.
func fakeAWS(t *testing.T, service, target string, answer func(n int, in map[string]any) (int, string)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.URL.Path != "/" {
			t.Errorf("%s %s, want POST /", r.Method, r.URL.Path)
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/x-amz-json-1.1" {
			t.Errorf("Content-Type %q", ct)
		}
		if !strings.HasPrefix(r.Header.Get("X-Amz-Target"), target+".") {
			t.Errorf("X-Amz-Target %q, want %s.<op>", r.Header.Get("X-Amz-Target"), target)
		}
		verifySigV4(t, r, body, service)
		var in map[string]any
		if err := json.Unmarshal(body, &in); err != nil {
			t.Errorf("body %q: %v", body, err)
		}
		in["op"] = strings.TrimPrefix(r.Header.Get("X-Amz-Target"), target+".")
		status, out := answer(int(n.Add(1)), in)
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		w.Header().Set("X-Amzn-RequestId", "req-"+strconv.Itoa(int(n.Load())))
		w.WriteHeader(status)
		io.WriteString(w, out)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestLoadKeyringFromSSM(t *testing.T) {
	srv, n := fakeAWS(t, "ssm", "AmazonSSM", func(_ int, in map[string]any) (int, string) {
		if in["op"] != "GetParameter" || in["Name"] != "/pbm/link-keys" || in["WithDecryption"] != true {
			t.Errorf("input %v", in)
		}
		return 200, `{"Parameter":{"ARN":"arn:aws:ssm:eu-west-1:123456789012:parameter/pbm/link-keys","DataType":"text",` +
			`"LastModifiedDate":1.717243200E9,"Name":"/pbm/link-keys","Type":"SecureString","Value":` + strconv.Quote(goodKeyring) + `,"Version":1}}`
	})
	keys, err := LoadKeyring(context.Background(), testAWS(srv.URL), Config{Table: "t", LinkKeysParameter: "/pbm/link-keys"})
	if err != nil || keys == nil {
		t.Fatalf("LoadKeyring: %v, %v", keys, err)
	}
	if n.Load() != 1 {
		t.Errorf("%d requests, want 1", n.Load())
	}
}

func TestLoadKeyringFromSecretsManager(t *testing.T) {
	srv, _ := fakeAWS(t, "secretsmanager", "secretsmanager", func(_ int, in map[string]any) (int, string) {
		if in["op"] != "GetSecretValue" || in["SecretId"] != "pbm/link-keys" {
			t.Errorf("input %v", in)
		}
		return 200, `{"ARN":"arn:aws:secretsmanager:eu-west-1:123456789012:secret:pbm/link-keys-AbCdEf","CreatedDate":1.717243200E9,` +
			`"Name":"pbm/link-keys","SecretString":` + strconv.Quote(goodKeyring) + `,"VersionId":"v1","VersionStages":["AWSCURRENT"]}`
	})
	if _, err := LoadKeyring(context.Background(), testAWS(srv.URL), Config{Table: "t", LinkKeysSecret: "pbm/link-keys"}); err != nil {
		t.Fatal(err)
	}
}

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
			srv, n := fakeAWS(t, "ssm", "AmazonSSM", func(i int, _ map[string]any) (int, string) {
				status, body, _ := strings.Cut(tt.answers[i-1], " ")
				code, _ := strconv.Atoi(status)
				return code, body
			})
			api := newJSONAPI(testAWS(srv.URL), "ssm", "AmazonSSM")
			api.pause = func(context.Context, time.Duration) error { return nil }
			var out getParameterOutput
			err := api.call(context.Background(), "GetParameter", getParameterInput{Name: "/p"}, &out)
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
		got, err := newJSONAPI(aws.Config{Region: region}, "ssm", "AmazonSSM").endpoint()
		if got != want || (want == "") != (err != nil) {
			t.Errorf("region %q: endpoint %q, %v; want %q", region, got, err, want)
		}
	}
	got, _ := newJSONAPI(aws.Config{Region: "eu-west-1", BaseEndpoint: aws.String("http://127.0.0.1:4566/")}, "ssm", "AmazonSSM").endpoint()
	if got != "http://127.0.0.1:4566/" {
		t.Errorf("AWS_ENDPOINT_URL: endpoint %q", got)
	}
}

func TestJSONAPICanceled(t *testing.T) {
	srv, n := fakeAWS(t, "ssm", "AmazonSSM", func(int, map[string]any) (int, string) { return 503, `{}` })
	ctx, cancel := context.WithCancel(context.Background())
	api := newJSONAPI(testAWS(srv.URL), "ssm", "AmazonSSM")
	api.pause = func(ctx context.Context, _ time.Duration) error { cancel(); return ctx.Err() }
	var out getParameterOutput
	if err := api.call(ctx, "GetParameter", getParameterInput{Name: "/p"}, &out); err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("call = %v, want the cancellation", err)
	}
	if n.Load() != 1 {
		t.Errorf("%d requests after cancel, want 1", n.Load())
	}
}
