// Package lambdahttp serves an http.Handler on AWS Lambda behind an API
// Gateway HTTP API (payload format 2.0): each event becomes an
// *http.Request as net/http's server would have made it, and what the
// handler writes becomes the event's response.
//
// Why not github.com/awslabs/aws-lambda-go-api-proxy: its v2 adapter splits
// every header value at commas (so Header.Get("Accept-Language") of
// "de-DE,en;q=0.8" is "de-DE" alone) and turns a handler that writes nothing
// into an error (a 504) instead of an empty 200.
//
// The request is what the API's $default stage (the one template.yaml
// deploys) delivers: the raw path is the path the client asked for. On a
// named stage API Gateway puts the stage name in front of the path; this
// package does not strip it.
package lambdahttp

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"
)

// Handler returns the function to give lambda.Start: it serves each event
// with h. It returns an error only if the event is not an HTTP API event; a
// request net/http would refuse (a malformed path, a body that is not the
// base64 it claims to be) is answered 400 as net/http answers it.
func Handler(h http.Handler) func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	return func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		return Serve(ctx, h, ev)
	}
}

// Serve serves one event with h.
func Serve(ctx context.Context, h http.Handler, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	if ev.RequestContext.HTTP.Method == "" {
		return events.APIGatewayV2HTTPResponse{}, errors.New("lambdahttp: not an API Gateway HTTP API (payload 2.0) event: no requestContext.http.method")
	}
	r, err := Request(ctx, ev)
	if err != nil {
		return events.APIGatewayV2HTTPResponse{
			StatusCode: http.StatusBadRequest,
			Headers:    map[string]string{"Content-Type": "text/plain; charset=utf-8", "Connection": "close"},
			Body:       "400 Bad Request",
		}, nil
	}
	w := NewResponseWriter()
	h.ServeHTTP(w, r)
	return w.Response(r.Method), nil
}

// Request makes the server-side request of an event: method, path and raw
// query as sent, headers (one value each, as API Gateway joins repeated
// headers with commas), the cookies as one Cookie header, Host from the
// Host header or the API's domain, the decoded body with its length, and
// the client's address as RemoteAddr (port 0), and API Gateway's request
// id in the context (RequestID). TLS is set: clients reach API Gateway
// over HTTPS only.
func Request(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (*http.Request, error) {
	method := strings.ToUpper(ev.RequestContext.HTTP.Method)
	if method == "" {
		return nil, errors.New("lambdahttp: no method")
	}
	path := ev.RawPath
	if path == "" {
		path = (&url.URL{Path: ev.RequestContext.HTTP.Path}).EscapedPath()
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	rawQuery := ev.RawQueryString
	if rawQuery == "" && len(ev.QueryStringParameters) > 0 {
		q := url.Values{}
		for k, v := range ev.QueryStringParameters {
			q.Set(k, v)
		}
		rawQuery = q.Encode()
	}
	uri := path
	if rawQuery != "" {
		uri += "?" + rawQuery
	}
	u, err := url.ParseRequestURI(uri)
	if err != nil {
		return nil, fmt.Errorf("lambdahttp: bad request URI: %w", err)
	}

	body := []byte(ev.Body)
	if ev.IsBase64Encoded {
		if body, err = base64.StdEncoding.DecodeString(ev.Body); err != nil {
			return nil, fmt.Errorf("lambdahttp: body is not base64: %w", err)
		}
	}

	proto := ev.RequestContext.HTTP.Protocol
	major, minor, ok := http.ParseHTTPVersion(proto)
	if !ok {
		proto, major, minor = "HTTP/1.1", 1, 1
	}

	header := make(http.Header, len(ev.Headers)+1)
	for k, v := range ev.Headers {
		header[http.CanonicalHeaderKey(k)] = []string{v}
	}
	if len(ev.Cookies) > 0 {
		header["Cookie"] = []string{strings.Join(ev.Cookies, "; ")}
	}
	host := header.Get("Host")
	if host == "" {
		host = ev.RequestContext.DomainName
	}
	delete(header, "Host") // net/http moves it to Request.Host

	r := &http.Request{
		Method:        method,
		URL:           u,
		Proto:         proto,
		ProtoMajor:    major,
		ProtoMinor:    minor,
		Header:        header,
		Host:          host,
		RequestURI:    uri,
		ContentLength: int64(len(body)),
		Body:          http.NoBody,
		RemoteAddr:    net.JoinHostPort(ev.RequestContext.HTTP.SourceIP, "0"),
		TLS:           &tls.ConnectionState{HandshakeComplete: true, ServerName: host},
	}
	if len(body) > 0 {
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	if id := ev.RequestContext.RequestID; id != "" {
		ctx = context.WithValue(ctx, requestIDKey{}, id)
	}
	return r.WithContext(ctx), nil
}

type requestIDKey struct{}

// RequestID is API Gateway's id of the request whose context ctx is
// (requestContext.requestId, the requestId of the API's access log), or
// "" outside one.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// ResponseWriter is the http.ResponseWriter that Serve hands the handler.
type ResponseWriter struct {
	header      http.Header
	status      int
	wroteHeader bool
	body        bytes.Buffer
}

var _ http.ResponseWriter = (*ResponseWriter)(nil)

// NewResponseWriter returns an empty ResponseWriter.
func NewResponseWriter() *ResponseWriter {
	return &ResponseWriter{header: http.Header{}, status: http.StatusOK}
}

// Header is the response's header map.
func (w *ResponseWriter) Header() http.Header { return w.header }

// WriteHeader sets the status; as in net/http, only the first final
// (non-1xx) status counts.
func (w *ResponseWriter) WriteHeader(code int) {
	if w.wroteHeader || code < 200 || code > 999 {
		return
	}
	w.status, w.wroteHeader = code, true
}

// Write appends to the body, first setting status 200 if none was set.
func (w *ResponseWriter) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.body.Write(p)
}

// Flush does nothing: the response goes out when the handler returns.
func (w *ResponseWriter) Flush() {}

// Response makes the event's response: status (200 if the handler set
// none), headers (repeated ones joined with commas, Set-Cookie as the
// cookies list), a sniffed Content-Type when the handler set none (as
// net/http does), and the body: as text if its media type is textual, it
// has no Content-Encoding and it is valid UTF-8, else base64. A HEAD
// request, 204 and 304 get no body.
func (w *ResponseWriter) Response(method string) events.APIGatewayV2HTTPResponse {
	body := w.body.Bytes()
	if method == http.MethodHead || w.status == http.StatusNoContent || w.status == http.StatusNotModified {
		body = nil
	}
	if _, set := w.header["Content-Type"]; !set && len(body) > 0 {
		w.header.Set("Content-Type", http.DetectContentType(body))
	}
	resp := events.APIGatewayV2HTTPResponse{StatusCode: w.status, Headers: make(map[string]string, len(w.header))}
	for k, vs := range w.header {
		if len(vs) == 0 {
			continue // net/http sends nothing for a key with no values
		}
		if k == "Set-Cookie" {
			resp.Cookies = append(resp.Cookies, vs...)
			continue
		}
		resp.Headers[k] = strings.Join(vs, ",")
	}
	if len(body) == 0 {
		return resp
	}
	// An encoded body (gzip) is bytes whatever its media type.
	if w.header.Get("Content-Encoding") == "" && isText(w.header.Get("Content-Type")) && utf8.Valid(body) {
		resp.Body = string(body)
	} else {
		resp.Body = base64.StdEncoding.EncodeToString(body)
		resp.IsBase64Encoded = true
	}
	return resp
}

// isText tells whether a media type is text that API Gateway can pass
// through as a string.
func isText(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	switch {
	case strings.HasPrefix(mt, "text/"),
		strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return true
	}
	switch mt {
	case "application/json", "application/xml", "application/javascript",
		"application/x-www-form-urlencoded":
		return true
	}
	return false
}
