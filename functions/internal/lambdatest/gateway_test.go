//go:build linux

package lambdatest

import (
	"encoding/base64"
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
)

// gatewayEvent makes the API Gateway HTTP API (payload 2.0) event that
// carries r to the route routeKey ("GET /g/{id}"), as API Gateway's
// $default stage delivers it: header names in lower case, repeated
// headers joined with commas, cookies apart, the body as text when it is
// JSON or text and base64 otherwise (a form post arrives base64), and
// requestContext.requestId set to requestID, the id API Gateway's access
// log shows.
func gatewayEvent(t *testing.T, routeKey string, r *http.Request, requestID string) []byte {
	t.Helper()
	body := readAll(t, r.Body)
	ev := events.APIGatewayV2HTTPRequest{
		Version:        "2.0",
		RouteKey:       routeKey,
		RawPath:        r.URL.EscapedPath(),
		RawQueryString: r.URL.RawQuery,
		Headers:        map[string]string{},
	}
	for k, vs := range r.Header {
		if strings.EqualFold(k, "Cookie") {
			for _, v := range vs {
				ev.Cookies = append(ev.Cookies, strings.Split(v, "; ")...)
			}
			continue
		}
		ev.Headers[strings.ToLower(k)] = strings.Join(vs, ",")
	}
	const domain = "a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com"
	ev.Headers["host"] = domain
	ev.Headers["x-forwarded-for"] = "203.0.113.7"
	ev.Headers["x-forwarded-port"] = "443"
	ev.Headers["x-forwarded-proto"] = "https"
	if ev.Headers["user-agent"] == "" {
		ev.Headers["user-agent"] = "pbm-lambdatest/1.0"
	}
	if len(body) > 0 {
		ev.Headers["content-length"] = strconv.Itoa(len(body))
		if textual(r.Header.Get("Content-Type")) {
			ev.Body = string(body)
		} else {
			ev.Body, ev.IsBase64Encoded = base64.StdEncoding.EncodeToString(body), true
		}
	}
	now := time.Now().UTC()
	rc := &ev.RequestContext
	rc.AccountID, rc.APIID, rc.DomainName, rc.DomainPrefix = "123456789012", "a1b2c3d4e5", domain, "a1b2c3d4e5"
	rc.RequestID, rc.RouteKey, rc.Stage = requestID, routeKey, "$default"
	rc.Time, rc.TimeEpoch = now.Format("02/Jan/2006:15:04:05 -0700"), now.UnixMilli()
	rc.HTTP.Method, rc.HTTP.Path, rc.HTTP.Protocol = r.Method, r.URL.Path, "HTTP/1.1"
	rc.HTTP.SourceIP, rc.HTTP.UserAgent = "203.0.113.7", ev.Headers["user-agent"]
	out, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// textual tells whether API Gateway passes a body of this type as text.
func textual(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	return strings.HasPrefix(mt, "text/") || mt == "application/json" || strings.HasSuffix(mt, "+json")
}
