package testenv

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// Secrets is a stand-in for the AWS API the link keys are read from, as
// it answers over its JSON 1.1 protocol: SSM Parameter Store's
// GetParameter (X-Amz-Target AmazonSSM.GetParameter, signed for service
// "ssm"). No local server of it exists; this is the tests' one stand-in
// of an AWS API. Like AWS, it checks each request's Signature Version 4 signature
// against the credentials and region it was made with, and answers an
// error as the service does (status 400, the error code in __type). It
// holds SecureString parameters, whose value it answers decrypted only
// when asked WithDecryption. Point the SDK's client at it with
// AWS_ENDPOINT_URL_SSM (or the client's BaseEndpoint).
type Secrets struct {
	URL string
	// Reads counts the values answered: SecureStrings read decrypted,
	// and Strings.
	Reads atomic.Int64

	creds  aws.Credentials
	region string
	mu     sync.Mutex
	params map[string]held // by name
}

// held is a parameter the stand-in holds.
type held struct {
	value string
	plain bool // of type String, not SecureString
}

// NewSecrets starts a stand-in that accepts requests signed with creds
// for region, holding params (name → value) as SecureString
// parameters; it stops when t ends.
func NewSecrets(t testing.TB, creds aws.Credentials, region string, params map[string]string) *Secrets {
	t.Helper()
	s := &Secrets{creds: creds, region: region, params: map[string]held{}}
	for k, v := range params {
		s.params[k] = held{value: v}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.serve(t, w, r)
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Put stores a SecureString parameter, as an operator puts one while
// the functions run.
func (s *Secrets) Put(name, value string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.params[name] = held{value: value}
}

// PutPlain stores a parameter of type String (not encrypted).
func (s *Secrets) PutPlain(name, value string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.params[name] = held{value: value, plain: true}
}

// awsError answers an error as the JSON 1.1 services do: status 400 and a
// JSON body naming the error code in __type.
func awsError(w http.ResponseWriter, code, message string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.Header().Set("X-Amzn-RequestId", requestID())
	w.WriteHeader(http.StatusBadRequest)
	body := map[string]string{"__type": code}
	if message != "" {
		body["message"] = message
	}
	_ = json.NewEncoder(w).Encode(body)
}

func (s *Secrets) serve(t testing.TB, w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		awsError(w, "SerializationException", "")
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/x-amz-json-1.1" {
		t.Errorf("secrets stand-in: Content-Type %q", ct)
		awsError(w, "SerializationException", "")
		return
	}
	if r.Header.Get("X-Amz-Target") != "AmazonSSM.GetParameter" {
		awsError(w, "UnknownOperationException", "")
		return
	}
	if code, msg := s.checkSigV4(r, body, "ssm"); code != "" {
		t.Errorf("secrets stand-in: %s: %s", code, msg)
		awsError(w, code, msg)
		return
	}
	s.getParameter(w, body)
}

// decode reads a request's input strictly: a member the operation does
// not have is refused, as the services refuse it.
func decode(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func (s *Secrets) held(name string) (held, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.params[name]
	return h, ok
}

func answer(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.Header().Set("X-Amzn-RequestId", requestID())
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Secrets) getParameter(w http.ResponseWriter, body []byte) {
	var in struct {
		Name           string
		WithDecryption *bool
	}
	if err := decode(body, &in); err != nil {
		awsError(w, "SerializationException", "")
		return
	}
	name := in.Name
	if i := strings.Index(name, ":parameter/"); strings.HasPrefix(name, "arn:") && i >= 0 {
		name = name[i+len(":parameter"):]
	}
	h, ok := s.held(name)
	if !ok {
		awsError(w, "ParameterNotFound", "")
		return
	}
	value, typ := h.value, "SecureString"
	if h.plain {
		typ = "String"
		s.Reads.Add(1)
	} else if in.WithDecryption == nil || !*in.WithDecryption {
		// The ciphertext KMS would give, not the value.
		sum := sha256.Sum256([]byte(value))
		value = base64.StdEncoding.EncodeToString(append([]byte("AQICAHh"), sum[:]...))
	} else {
		s.Reads.Add(1)
	}
	answer(w, map[string]any{"Parameter": map[string]any{
		"ARN":              fmt.Sprintf("arn:aws:ssm:%s:123456789012:parameter%s", s.region, name),
		"DataType":         "text",
		"LastModifiedDate": 1.717236930123e9,
		"Name":             name,
		"Type":             typ,
		"Value":            value,
		"Version":          3,
	}})
}

// checkSigV4 verifies a request's Signature Version 4 signature as AWS
// does: the credential scope, the signed headers (host, x-amz-date, the
// session token if the credentials have one, the operation and the
// content type among them), the time, and the signature computed again
// from the canonical request with an implementation of its own. It
// returns the error code AWS would answer, or "".
func (s *Secrets) checkSigV4(r *http.Request, body []byte, service string) (code, msg string) {
	auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ")
	if !ok {
		return "MissingAuthenticationTokenException", "Missing Authentication Token"
	}
	fields := map[string]string{}
	for _, f := range strings.Split(auth, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(f), "=")
		fields[k] = v
	}
	amzDate := r.Header.Get("X-Amz-Date")
	when, err := time.Parse("20060102T150405Z", amzDate)
	if err != nil {
		return "IncompleteSignatureException", "X-Amz-Date is missing or malformed"
	}
	if d := time.Since(when); d > 5*time.Minute || d < -5*time.Minute {
		return "InvalidSignatureException", "Signature expired"
	}
	scope := amzDate[:8] + "/" + s.region + "/" + service + "/aws4_request"
	if fields["Credential"] != s.creds.AccessKeyID+"/"+scope {
		return "UnrecognizedClientException", "The security token included in the request is invalid."
	}
	if r.Header.Get("X-Amz-Security-Token") != s.creds.SessionToken {
		return "UnrecognizedClientException", "The security token included in the request is invalid."
	}
	signed := strings.Split(fields["SignedHeaders"], ";")
	if !sort.StringsAreSorted(signed) {
		return "InvalidSignatureException", "SignedHeaders are not sorted"
	}
	need := []string{"host", "x-amz-date", "x-amz-target", "content-type"}
	if s.creds.SessionToken != "" {
		need = append(need, "x-amz-security-token")
	}
	for _, h := range need {
		if !slices.Contains(signed, h) {
			return "InvalidSignatureException", "SignedHeaders lack " + h
		}
	}
	var canon strings.Builder
	canon.WriteString(r.Method + "\n" + r.URL.EscapedPath() + "\n" + r.URL.RawQuery + "\n")
	for _, h := range signed {
		v := r.Header.Get(h)
		if h == "host" {
			v = r.Host
		}
		canon.WriteString(h + ":" + strings.Join(strings.Fields(v), " ") + "\n")
	}
	canon.WriteString("\n" + fields["SignedHeaders"] + "\n" + hexSHA256(body))
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + hexSHA256([]byte(canon.String()))
	key := []byte("AWS4" + s.creds.SecretAccessKey)
	for _, part := range []string{amzDate[:8], s.region, service, "aws4_request"} {
		key = hmacSHA256(key, part)
	}
	if want := hex.EncodeToString(hmacSHA256(key, toSign)); !hmac.Equal([]byte(fields["Signature"]), []byte(want)) {
		return "InvalidSignatureException", "The request signature we calculated does not match the signature you provided."
	}
	return "", ""
}

func hexSHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func hmacSHA256(key []byte, data string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(data))
	return m.Sum(nil)
}

// requestID is a random id in the form AWS gives its requests.
func requestID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
