package config

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// jsonAPI calls one operation of an AWS service speaking the JSON 1.1
// protocol (SSM, Secrets Manager): a POST of the input as JSON, signed with
// SigV4, naming the operation in X-Amz-Target.
//
// Why not the SDK's ssm and secretsmanager clients: each function reads its
// keyring once, at init, with one call, but importing those packages links
// their schema registries whole (their package init), 1.5 MB of every
// binary, which took the mail-sending functions over the 15 MB limit.
type jsonAPI struct {
	cfg     aws.Config
	service string // signing name and endpoint prefix: "ssm"
	target  string // X-Amz-Target prefix: "AmazonSSM"
	now     func() time.Time
	pause   func(context.Context, time.Duration) error // between attempts
}

func newJSONAPI(cfg aws.Config, service, target string) *jsonAPI {
	return &jsonAPI{cfg: cfg, service: service, target: target, now: time.Now, pause: sleep}
}

// apiError is an error answer of an AWS service.
type apiError struct {
	Op, Code, Message, RequestID string
	Status                       int
}

func (e *apiError) Error() string {
	s := fmt.Sprintf("%s: %s (HTTP %d)", e.Op, e.Code, e.Status)
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.RequestID != "" {
		s += " [request " + e.RequestID + "]"
	}
	return s
}

// retryable reports an answer worth another attempt: throttling, a server
// error.
func (e *apiError) retryable() bool {
	return e.Status >= 500 || e.Status == http.StatusTooManyRequests ||
		strings.Contains(e.Code, "Throttl") || e.Code == "TooManyRequestsException" || e.Code == "RequestLimitExceeded"
}

const attempts = 3

// call sends op with in as its input and decodes the answer into out,
// trying again on a network error, throttling or a server error. Errors
// carry the service's error code and message, never the answer's body.
func (a *jsonAPI) call(ctx context.Context, op string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	var last error
	for i := range attempts {
		if i > 0 {
			if err := a.pause(ctx, time.Duration(50<<(2*i))*time.Millisecond); err != nil {
				return errors.Join(last, err)
			}
		}
		var retry bool
		retry, last = a.once(ctx, op, body, out)
		if last == nil || !retry || ctx.Err() != nil {
			return last
		}
	}
	return last
}

// once makes one attempt; retry says whether another may succeed (a
// network error, throttling, a server error).
func (a *jsonAPI) once(ctx context.Context, op string, body []byte, out any) (retry bool, err error) {
	endpoint, err := a.endpoint()
	if err != nil {
		return false, err
	}
	if a.cfg.Credentials == nil {
		return false, fmt.Errorf("%s: no AWS credentials", op)
	}
	creds, err := a.cfg.Credentials.Retrieve(ctx)
	if err != nil {
		return false, fmt.Errorf("%s: credentials: %w", op, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	req.Header.Set("X-Amz-Target", a.target+"."+op)
	sum := sha256.Sum256(body)
	if err := v4.NewSigner().SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), a.service, a.cfg.Region, a.now()); err != nil {
		return false, fmt.Errorf("%s: sign: %w", op, err)
	}
	client := a.cfg.HTTPClient
	if client == nil {
		client = defaultHTTP
	}
	resp, err := client.Do(req)
	if err != nil {
		return true, fmt.Errorf("%s: %w", op, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return true, fmt.Errorf("%s: read answer: %w", op, err)
	}
	if resp.StatusCode != http.StatusOK {
		e := answerError(op, resp, data)
		return e.retryable(), e
	}
	if err := json.Unmarshal(data, out); err != nil {
		// encoding/json's errors name types and offsets, not values.
		return false, fmt.Errorf("%s: decode answer: %w", op, err)
	}
	return false, nil
}

var defaultHTTP = &http.Client{Timeout: 5 * time.Second}

// answerError reads an AWS JSON error answer: {"__type": "...#Code",
// "message": "..."}, the code possibly in X-Amzn-ErrorType instead.
func answerError(op string, resp *http.Response, data []byte) *apiError {
	var e struct {
		Type     string `json:"__type"`
		Code     string `json:"code"`
		Message  string `json:"message"`
		Message2 string `json:"Message"`
	}
	_ = json.Unmarshal(data, &e)
	code := e.Type
	if code == "" {
		code = e.Code
	}
	if code == "" {
		code = resp.Header.Get("X-Amzn-ErrorType")
	}
	code, _, _ = strings.Cut(code, ":")
	if i := strings.LastIndexByte(code, '#'); i >= 0 {
		code = code[i+1:]
	}
	if code == "" {
		code = http.StatusText(resp.StatusCode)
	}
	msg := e.Message
	if msg == "" {
		msg = e.Message2
	}
	return &apiError{Op: op, Code: code, Message: msg, Status: resp.StatusCode, RequestID: resp.Header.Get("X-Amzn-RequestId")}
}

// sdkIDs are the SDK IDs of the services jsonAPI calls, by signing name:
// what names their AWS_ENDPOINT_URL_<SERVICE> variable.
var sdkIDs = map[string]string{"ssm": "SSM", "secretsmanager": "Secrets Manager"}

// endpoint is, as the SDK's clients choose it, the service's own endpoint
// (AWS_ENDPOINT_URL_SSM, AWS_ENDPOINT_URL_SECRETS_MANAGER), else
// AWS_ENDPOINT_URL (the config's BaseEndpoint), else the service's regional
// endpoint.
func (a *jsonAPI) endpoint() (string, error) {
	ep := serviceEndpoint(a.cfg, sdkIDs[a.service])
	if ep == "" {
		ep = aws.ToString(a.cfg.BaseEndpoint)
	}
	if ep != "" {
		return strings.TrimRight(ep, "/") + "/", nil
	}
	r := a.cfg.Region
	if r == "" || strings.ContainsAny(r, "/.:@ ") {
		return "", fmt.Errorf("config: no usable AWS region (%q)", r)
	}
	suffix := "amazonaws.com"
	if strings.HasPrefix(r, "cn-") {
		suffix = "amazonaws.com.cn"
	}
	return "https://" + a.service + "." + r + "." + suffix + "/", nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
