//go:build linux

package lambdatest

import (
	"bytes"
	"crypto/hmac"
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
)

// ssmServer answers SSM's GetParameter as the service does over its JSON
// 1.1 protocol: a POST to / naming AmazonSSM.GetParameter in X-Amz-Target,
// signed with SigV4 for service "ssm" with the functions' credentials,
// answered with the parameter or an error whose __type is SSM's code. No
// local SSM server exists; this is the tests' one stand-in. It holds
// SecureString parameters and answers their value decrypted only when
// asked WithDecryption.
type ssmServer struct {
	url    string
	mu     sync.Mutex
	params map[string]string // name → value
	calls  atomic.Int64      // GetParameter calls answered with a value
}

// put stores a parameter, as an operator puts one while the functions
// run.
func (s *ssmServer) put(name, value string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.params[name] = value
}

func newSSMServer(t *testing.T, params map[string]string) *ssmServer {
	s := &ssmServer{params: params}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.serve(t, w, r)
	}))
	t.Cleanup(srv.Close)
	s.url = srv.URL
	return s
}

// ssmError answers an error as SSM does: status 400 and a JSON body naming
// the error code in __type.
func ssmError(w http.ResponseWriter, code, message string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.Header().Set("X-Amzn-RequestId", randomUUID())
	w.WriteHeader(http.StatusBadRequest)
	body := map[string]string{"__type": code}
	if message != "" {
		body["message"] = message
	}
	_ = json.NewEncoder(w).Encode(body)
}

func (s *ssmServer) serve(t *testing.T, w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		ssmError(w, "SerializationException", "")
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/x-amz-json-1.1" {
		t.Errorf("SSM: Content-Type %q", ct)
		ssmError(w, "SerializationException", "")
		return
	}
	if code, msg := checkSigV4(r, body, "ssm"); code != "" {
		t.Errorf("SSM: %s: %s", code, msg)
		ssmError(w, code, msg)
		return
	}
	if target := r.Header.Get("X-Amz-Target"); target != "AmazonSSM.GetParameter" {
		ssmError(w, "UnknownOperationException", "")
		return
	}
	var in struct {
		Name           string
		WithDecryption *bool
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		ssmError(w, "SerializationException", "")
		return
	}
	name := in.Name
	if i := strings.Index(name, ":parameter/"); strings.HasPrefix(name, "arn:") && i >= 0 {
		name = name[i+len(":parameter"):]
	}
	s.mu.Lock()
	value, ok := s.params[name]
	s.mu.Unlock()
	if !ok {
		ssmError(w, "ParameterNotFound", "")
		return
	}
	if in.WithDecryption == nil || !*in.WithDecryption {
		// The ciphertext KMS would give, not the value.
		sum := sha256.Sum256([]byte(value))
		value = base64.StdEncoding.EncodeToString(append([]byte("AQICAHh"), sum[:]...))
	} else {
		s.calls.Add(1)
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.Header().Set("X-Amzn-RequestId", randomUUID())
	_ = json.NewEncoder(w).Encode(map[string]any{"Parameter": map[string]any{
		"ARN":              fmt.Sprintf("arn:aws:ssm:%s:123456789012:parameter%s", region, name),
		"DataType":         "text",
		"LastModifiedDate": 1.717236930123e9,
		"Name":             name,
		"Type":             "SecureString",
		"Value":            value,
		"Version":          3,
	}})
}

// checkSigV4 verifies a request's Signature Version 4 signature against the
// functions' credentials, as AWS does: the credential scope, the signed
// headers (host, x-amz-date and the session token among them), the time,
// and the signature computed again from the canonical request. It returns
// the error code AWS would answer, or "".
func checkSigV4(r *http.Request, body []byte, service string) (code, msg string) {
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
	scope := amzDate[:8] + "/" + region + "/" + service + "/aws4_request"
	if fields["Credential"] != accessKeyID+"/"+scope {
		return "UnrecognizedClientException", "The security token included in the request is invalid."
	}
	if r.Header.Get("X-Amz-Security-Token") != sessionToken {
		return "UnrecognizedClientException", "The security token included in the request is invalid."
	}
	signed := strings.Split(fields["SignedHeaders"], ";")
	if !sort.StringsAreSorted(signed) {
		return "InvalidSignatureException", "SignedHeaders are not sorted"
	}
	for _, h := range []string{"host", "x-amz-date", "x-amz-security-token", "x-amz-target", "content-type"} {
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
	key := []byte("AWS4" + secretKey)
	for _, part := range []string{amzDate[:8], region, service, "aws4_request"} {
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

func randomUUID() string {
	h := randomHex(16)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
