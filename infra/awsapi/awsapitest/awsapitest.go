// Package awsapitest serves fake AWS APIs for tests of the clients built
// on package awsapi: it checks each request as AWS would (method, path,
// headers, its SigV4 signature recomputed by an implementation of its
// own) and answers what the test says.
package awsapitest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// The credentials and region of Config.
const (
	KeyID  = "ASIAEXAMPLEKEYID"
	Secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	Token  = "session-token"
	Region = "eu-west-1"
)

// Config is the AWS configuration of a client of the fake at endpoint.
func Config(endpoint string) aws.Config {
	return aws.Config{
		Region:       Region,
		Credentials:  credentials.NewStaticCredentialsProvider(KeyID, Secret, Token),
		BaseEndpoint: aws.String(endpoint),
	}
}

// VerifySigV4 recomputes the request's SigV4 signature from the request as
// received (its own implementation of the algorithm) and compares it;
// signed lists the headers that must be signed besides host and the
// x-amz- ones.
func VerifySigV4(t testing.TB, r *http.Request, body []byte, service string, signed ...string) {
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
	scope := date[:8] + "/" + Region + "/" + service + "/aws4_request"
	if fields["Credential"] != KeyID+"/"+scope {
		t.Errorf("Credential %q, want %s/%s", fields["Credential"], KeyID, scope)
	}
	headers := strings.Split(fields["SignedHeaders"], ";")
	for _, h := range append([]string{"host", "x-amz-date", "x-amz-security-token"}, signed...) {
		if !slices.Contains(headers, h) {
			t.Errorf("SignedHeaders %v lacks %s", headers, h)
		}
	}
	sort.Strings(headers)
	var canon strings.Builder
	for _, h := range headers {
		v := r.Header.Get(h)
		if h == "host" {
			v = r.Host
		}
		canon.WriteString(h + ":" + strings.TrimSpace(v) + "\n")
	}
	sum := sha256.Sum256(body)
	creq := strings.Join([]string{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, canon.String(), strings.Join(headers, ";"), hex.EncodeToString(sum[:])}, "\n")
	creqSum := sha256.Sum256([]byte(creq))
	toSign := "AWS4-HMAC-SHA256\n" + date + "\n" + scope + "\n" + hex.EncodeToString(creqSum[:])
	mac := func(key []byte, s string) []byte {
		h := hmac.New(sha256.New, key)
		h.Write([]byte(s))
		return h.Sum(nil)
	}
	k := mac([]byte("AWS4"+Secret), date[:8])
	for _, s := range []string{Region, service, "aws4_request"} {
		k = mac(k, s)
	}
	if want := hex.EncodeToString(mac(k, toSign)); fields["Signature"] != want {
		t.Errorf("Signature %s, want %s (canonical request:\n%s)", fields["Signature"], want, creq)
	}
	if got := r.Header.Get("X-Amz-Security-Token"); got != Token {
		t.Errorf("X-Amz-Security-Token %q", got)
	}
}

// JSONServer serves the AWS JSON protocol version ("1.0", "1.1") of
// service (its signing name), whose operations are named
// target.<operation>: it checks each request (method, path, headers,
// signature) and answers with what answer returns, given the request's
// number (from 1) and its input with the operation's name added as "op".
// The count is of the requests served.
func JSONServer(t testing.TB, version, service, target string, answer func(n int, in map[string]any) (int, string)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.URL.Path != "/" {
			t.Errorf("%s %s, want POST /", r.Method, r.URL.Path)
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/x-amz-json-"+version {
			t.Errorf("Content-Type %q", ct)
		}
		if !strings.HasPrefix(r.Header.Get("X-Amz-Target"), target+".") {
			t.Errorf("X-Amz-Target %q, want %s.<op>", r.Header.Get("X-Amz-Target"), target)
		}
		VerifySigV4(t, r, body, service, "content-type", "x-amz-target")
		var in map[string]any
		if err := json.Unmarshal(body, &in); err != nil {
			t.Errorf("body %q: %v", body, err)
		}
		in["op"] = strings.TrimPrefix(r.Header.Get("X-Amz-Target"), target+".")
		status, out := answer(int(n.Add(1)), in)
		w.Header().Set("Content-Type", "application/x-amz-json-"+version)
		w.Header().Set("X-Amzn-RequestId", "req-"+strconv.Itoa(int(n.Load())))
		w.WriteHeader(status)
		io.WriteString(w, out)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}
