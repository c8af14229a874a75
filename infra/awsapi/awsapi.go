// Package awsapi calls AWS services over HTTP without their SDK clients:
// a request signed with SigV4 (the SDK's own aws/signer/v4), sent to the
// endpoint the SDK would choose, tried again on throttling, server errors
// and network failures as the SDK's standard retryer does (bounded, with
// jittered exponential backoff), and an error answer read into an
// *APIError carrying the service's error code. It speaks the AWS JSON
// protocols 1.0 (DynamoDB) and 1.1 (SSM, Secrets Manager), where the
// operation travels in X-Amz-Target, and REST-JSON (SES v2), where it is
// a method and a path.
//
// Why not the SDK's clients (SPEC §6 prefers them unless the cold-start
// figure demands otherwise; it does): importing a service's SDK package
// runs its schema registry's package init at every cold start, and the
// types package of a service imports the registry too. Measured with
// GODEBUG=inittrace=1 on the api function: service/dynamodb/schemas
// 0.77 ms and 587 KB, service/dynamodb/internal/endpoints 0.16 ms, and in
// notify and sweep service/sesv2/schemas 0.79 ms more, out of a package
// init of 3.2 ms against a hello world's 0.86 ms; under the runtime
// emulator (lambdatest's TestColdStart) api took 2.21×, notify 2.61× and
// sweep 2.25× the hello world's cold init, against SPEC's 1.5×. The
// functions make a handful of operations each (package ddb for DynamoDB,
// sesmailer's SendEmail, config's keyring read), which this package and
// their own small request types cover.
//
// What that bought, each figure before → after, measured side by side
// (15 runs of each binary, medians): the package inits of the SDK and
// smithy-go 2.35 → 0.05 ms in api, 2.19 → 0.04 ms in notify; the memory
// all package inits allocate 997 → 323 KB in api, 1650 → 326 KB in
// notify and sweep, 739 → 51 KB in bounces; the arm64 binaries 15.0 → 11.8 MB
// (api), 15.3 → 11.3 MB (notify, sweep), 7.7 → 6.2 MB (bounces); and
// TestColdStart's ratio to the hello world (three runs each, alternated)
// api 2.29–2.50× → 1.82–1.85×, notify 2.34–2.87× → 1.71–2.11×, sweep
// 2.48–2.50× → 1.60–2.02×, bounces 1.38–1.85× → 1.07–1.22×. What remains
// above the hello world is the pages' templates, the games' data and the
// keyring read, not the AWS clients.
package awsapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// Service describes one AWS service as this package calls it.
type Service struct {
	// SigningName is the name in the SigV4 scope ("dynamodb", "ses").
	SigningName string
	// EndpointPrefix names the regional endpoint,
	// https://<prefix>.<region>.amazonaws.com; SigningName if empty.
	EndpointPrefix string
	// SDKID is the service's id in the SDK ("DynamoDB", "SESv2",
	// "Secrets Manager"): its endpoint variable is
	// AWS_ENDPOINT_URL_<SDKID in upper case, spaces as underscores>.
	SDKID string
	// JSONVersion is "1.0" or "1.1" for the AWS JSON protocols, whose
	// operations are named in X-Amz-Target as TargetPrefix.<operation>;
	// "" for REST-JSON.
	JSONVersion  string
	TargetPrefix string
	// MaxAttempts and BaseDelay are the SDK's retry settings for the
	// service (3 and 50 ms unless the SDK's client sets others); a
	// throttled attempt waits from a base of one second instead.
	MaxAttempts int
	BaseDelay   time.Duration
	// CRC32 checks the X-Amz-Crc32 header of each answer, as the SDK's
	// DynamoDB client does; a mismatch is tried again.
	CRC32 bool
	// MaxAnswer bounds the answer's size that is read (1 MiB if 0).
	MaxAnswer int64
}

// The services the functions call.
var (
	// DynamoDB is JSON 1.0; the SDK's client tries four times, from a
	// base delay of 25 ms, and checks the answer's CRC32.
	DynamoDB = Service{SigningName: "dynamodb", SDKID: "DynamoDB", JSONVersion: "1.0", TargetPrefix: "DynamoDB_20120810",
		MaxAttempts: 4, BaseDelay: 25 * time.Millisecond, CRC32: true, MaxAnswer: 32 << 20}
	// SESv2 is REST-JSON, at https://email.<region>.amazonaws.com.
	SESv2          = Service{SigningName: "ses", EndpointPrefix: "email", SDKID: "SESv2"}
	SSM            = Service{SigningName: "ssm", SDKID: "SSM", JSONVersion: "1.1", TargetPrefix: "AmazonSSM"}
	SecretsManager = Service{SigningName: "secretsmanager", SDKID: "Secrets Manager", JSONVersion: "1.1", TargetPrefix: "secretsmanager"}
)

// HTTPClient sends a request: an *http.Client, or a test's recorder.
type HTTPClient interface {
	Do(*http.Request) (*http.Response, error)
}

// Options adjust a Client.
type Options struct {
	// HTTPClient sends the requests: the aws.Config's if it has one, else
	// a client shared by this package's clients.
	HTTPClient HTTPClient
	// MaxAttempts bounds the attempts of one call (the service's default
	// if 0; 1 never tries again).
	MaxAttempts int
	// Pause waits between attempts; a test may make it instant.
	Pause func(context.Context, time.Duration) error
	// Now is the signing time.
	Now func() time.Time
}

// Client calls one service. It is safe for concurrent use.
type Client struct {
	cfg  aws.Config
	svc  Service
	opts Options
}

// New returns a client of svc with the region, credentials, endpoint and
// HTTP client of cfg (config.LambdaAWS in Lambda, config.LocalAWS for a
// local server).
func New(cfg aws.Config, svc Service, optFns ...func(*Options)) *Client {
	o := Options{HTTPClient: cfg.HTTPClient, MaxAttempts: svc.MaxAttempts, Pause: sleep, Now: time.Now}
	for _, fn := range optFns {
		fn(&o)
	}
	if o.HTTPClient == nil {
		o.HTTPClient = defaultHTTP
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = defaultAttempts
	}
	if o.Pause == nil {
		o.Pause = sleep
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Client{cfg: cfg, svc: svc, opts: o}
}

const defaultAttempts = 3

// dialTimeout and handshakeTimeout bound the opening of a connection
// and its TLS handshake.
const (
	dialTimeout      = 30 * time.Second
	handshakeTimeout = 10 * time.Second
)

// defaultHTTP has no overall timeout, as the SDK's has none: a retried
// timeout could repeat a write that was made, and the function's own
// timeout bounds every call. It keeps more idle connections per host than
// Go's default of two, for concurrent calls (the sweep's workers).
var defaultHTTP = &http.Client{Transport: &http.Transport{
	Proxy:                 http.ProxyFromEnvironment,
	DialContext:           (&net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}).DialContext,
	ForceAttemptHTTP2:     true,
	MaxIdleConns:          100,
	MaxIdleConnsPerHost:   32,
	IdleConnTimeout:       90 * time.Second,
	TLSHandshakeTimeout:   handshakeTimeout,
	ExpectContinueTimeout: time.Second,
}}

// JSON calls op of a JSON-protocol service: a POST to the endpoint of the
// JSON of in (or of in itself if it is a []byte), op in X-Amz-Target, its
// answer decoded into out (if not nil).
func (c *Client) JSON(ctx context.Context, op string, in, out any) error {
	if c.svc.JSONVersion == "" {
		return fmt.Errorf("awsapi: %s speaks no JSON protocol", c.svc.SDKID)
	}
	return c.call(ctx, op, http.MethodPost, "", in, out)
}

// REST calls op of a REST-JSON service: method on path (from the
// endpoint's root, "/v2/email/outbound-emails") with the JSON of in as
// the body, the answer decoded into out (if not nil).
func (c *Client) REST(ctx context.Context, op, method, path string, in, out any) error {
	if c.svc.JSONVersion != "" {
		return fmt.Errorf("awsapi: %s speaks JSON %s, not REST", c.svc.SDKID, c.svc.JSONVersion)
	}
	return c.call(ctx, op, method, path, in, out)
}

// call sends op, trying again on a network error, throttling or a server
// error, at most MaxAttempts times. Errors carry the service's error code
// and message, never the answer's body.
func (c *Client) call(ctx context.Context, op, method, path string, in, out any) error {
	body, ok := in.([]byte)
	if !ok {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return fmt.Errorf("%s: encode input: %w", op, err)
		}
	}
	var last error
	for i := range c.opts.MaxAttempts {
		if i > 0 {
			if err := c.opts.Pause(ctx, c.backoff(i, last)); err != nil {
				return errors.Join(last, err)
			}
		}
		var retry bool
		retry, last = c.once(ctx, op, method, path, body, out)
		if last == nil || !retry || ctx.Err() != nil {
			return last
		}
	}
	return last
}

// backoff is the wait before retry number i (1 for the first), as the
// SDK's standard retryer waits: a random part of base·2^(i-1), at most
// 20 s, base being one second after throttling and the service's base
// delay otherwise.
func (c *Client) backoff(i int, last error) time.Duration {
	base := c.svc.BaseDelay
	if base <= 0 {
		base = 50 * time.Millisecond
	}
	var ae *APIError
	if errors.As(last, &ae) && ae.Throttling() {
		base = time.Second
	}
	d := min(base<<(i-1), 20*time.Second)
	return time.Duration(rand.Float64() * float64(d))
}

// once makes one attempt; retry says whether another may succeed.
func (c *Client) once(ctx context.Context, op, method, path string, body []byte, out any) (retry bool, err error) {
	endpoint, err := c.Endpoint()
	if err != nil {
		return false, err
	}
	if c.cfg.Credentials == nil {
		return false, fmt.Errorf("%s: no AWS credentials", op)
	}
	creds, err := c.cfg.Credentials.Retrieve(ctx)
	if err != nil {
		return false, fmt.Errorf("%s: credentials: %w", op, err)
	}
	if path != "" {
		endpoint = strings.TrimRight(endpoint, "/") + path
	}
	req, err := http.NewRequestWithContext(ctx, method, endpoint, bytes.NewReader(body))
	if err != nil {
		return false, fmt.Errorf("%s: %w", op, err)
	}
	if c.svc.JSONVersion != "" {
		req.Header.Set("Content-Type", "application/x-amz-json-"+c.svc.JSONVersion)
		req.Header.Set("X-Amz-Target", c.svc.TargetPrefix+"."+op)
	} else {
		req.Header.Set("Content-Type", "application/json")
	}
	// As the SDK's clients: no transparent gzip, whose decoding would
	// hide the bytes the CRC32 covers.
	req.Header.Set("Accept-Encoding", "identity")
	sum := sha256.Sum256(body)
	if err := v4.NewSigner().SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), c.svc.SigningName, c.cfg.Region, c.opts.Now()); err != nil {
		return false, fmt.Errorf("%s: sign: %w", op, err)
	}
	resp, err := c.opts.HTTPClient.Do(req)
	if err != nil {
		return ctx.Err() == nil, fmt.Errorf("%s: %w", op, err)
	}
	defer resp.Body.Close()
	limit := c.svc.MaxAnswer
	if limit <= 0 {
		limit = 1 << 20
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	if err != nil {
		return ctx.Err() == nil, fmt.Errorf("%s: read answer: %w", op, err)
	}
	if c.svc.CRC32 {
		if want := resp.Header.Get("X-Amz-Crc32"); want != "" && want != strconv.FormatUint(uint64(crc32.ChecksumIEEE(data)), 10) {
			return true, fmt.Errorf("%s: the answer's CRC32 is not %s (%d bytes read)", op, want, len(data))
		}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		e := answerError(op, resp, data)
		return e.Retryable(), e
	}
	if out == nil {
		return false, nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		// encoding/json's errors name types and offsets, not values.
		return false, fmt.Errorf("%s: decode answer: %w", op, err)
	}
	return false, nil
}

// Endpoint is the URL of the service's root as the SDK's clients choose
// it: the service's own endpoint in cfg's sources
// (AWS_ENDPOINT_URL_<SERVICE>), else cfg's BaseEndpoint
// (AWS_ENDPOINT_URL), else the regional endpoint; with a final '/'.
func (c *Client) Endpoint() (string, error) {
	ep := ServiceEndpoint(c.cfg, c.svc.SDKID)
	if ep == "" {
		ep = aws.ToString(c.cfg.BaseEndpoint)
	}
	if ep != "" {
		return strings.TrimRight(ep, "/") + "/", nil
	}
	r := c.cfg.Region
	if r == "" || strings.ContainsAny(r, "/.:@ ") {
		return "", fmt.Errorf("awsapi: no usable AWS region (%q)", r)
	}
	suffix := "amazonaws.com"
	if strings.HasPrefix(r, "cn-") {
		suffix = "amazonaws.com.cn"
	}
	prefix := c.svc.EndpointPrefix
	if prefix == "" {
		prefix = c.svc.SigningName
	}
	return "https://" + prefix + "." + r + "." + suffix + "/", nil
}

// ServiceEndpoint is the endpoint configured for the service whose SDK ID
// is sdkID ("SSM") in cfg's sources, or "": what the SDK's clients ask
// of each source (config.LambdaAWS puts the environment's
// AWS_ENDPOINT_URL_<SERVICE> there).
func ServiceEndpoint(cfg aws.Config, sdkID string) string {
	type provider interface {
		GetServiceBaseEndpoint(context.Context, string) (string, bool, error)
	}
	if sdkID == "" {
		return ""
	}
	for _, src := range cfg.ConfigSources {
		if p, ok := src.(provider); ok {
			if v, found, err := p.GetServiceBaseEndpoint(context.Background(), sdkID); err == nil && found {
				return v
			}
		}
	}
	return ""
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
