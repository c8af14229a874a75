package lambdahttp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

// event builds an HTTP API payload 2.0 event as API Gateway sends it.
func event(method, rawPath, rawQuery string) events.APIGatewayV2HTTPRequest {
	ev := events.APIGatewayV2HTTPRequest{
		Version:        "2.0",
		RouteKey:       method + " " + rawPath,
		RawPath:        rawPath,
		RawQueryString: rawQuery,
		Headers: map[string]string{
			"host":              "abc123.execute-api.eu-west-1.amazonaws.com",
			"user-agent":        "curl/8.5.0",
			"x-forwarded-for":   "203.0.113.7",
			"x-forwarded-proto": "https",
		},
	}
	ev.RequestContext.DomainName = "abc123.execute-api.eu-west-1.amazonaws.com"
	ev.RequestContext.Stage = "$default"
	ev.RequestContext.RequestID = "Jx9qvhB7oAMEYhQ="
	ev.RequestContext.HTTP.Method = method
	ev.RequestContext.HTTP.Path = rawPath
	ev.RequestContext.HTTP.Protocol = "HTTP/1.1"
	ev.RequestContext.HTTP.SourceIP = "203.0.113.7"
	return ev
}

// seen is what a handler saw of its request.
type seen struct {
	Method, Host, Path, RawPath, RawQuery, RequestURI, RemoteAddr, Proto string
	Query                                                                map[string][]string
	Header                                                               map[string][]string
	Cookies                                                              map[string]string
	Body                                                                 []byte
	ContentLength                                                        int64
	TLS                                                                  bool
	PathID                                                               string
}

func capture(into *seen) http.Handler {
	mux := http.NewServeMux()
	h := func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			panic(err)
		}
		*into = seen{
			Method: r.Method, Host: r.Host, Path: r.URL.Path, RawPath: r.URL.RawPath, RawQuery: r.URL.RawQuery,
			RequestURI: r.RequestURI, RemoteAddr: r.RemoteAddr, Proto: r.Proto,
			Query: r.URL.Query(), Header: r.Header, Cookies: map[string]string{},
			Body: body, ContentLength: r.ContentLength, TLS: r.TLS != nil, PathID: r.PathValue("id"),
		}
		for _, c := range r.Cookies() {
			into.Cookies[c.Name] = c.Value
		}
		w.WriteHeader(http.StatusNoContent)
	}
	mux.HandleFunc("GET /g/{id}", h)
	mux.HandleFunc("POST /api/games/{id}/actions", h)
	mux.HandleFunc("/", h)
	return mux
}

func TestRequest(t *testing.T) {
	png := []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0xff, 0xfe}
	tests := []struct {
		name  string
		ev    func() events.APIGatewayV2HTTPRequest
		check func(t *testing.T, s seen)
	}{
		{
			name: "path value, raw query, host, remote address, TLS",
			ev:   func() events.APIGatewayV2HTTPRequest { return event("GET", "/g/AB12", "t=v4.x-y_z&lang=en") },
			check: func(t *testing.T, s seen) {
				want := seen{Method: "GET", Host: "abc123.execute-api.eu-west-1.amazonaws.com", Path: "/g/AB12",
					RawQuery: "t=v4.x-y_z&lang=en", RequestURI: "/g/AB12?t=v4.x-y_z&lang=en",
					RemoteAddr: "203.0.113.7:0", Proto: "HTTP/1.1", TLS: true, PathID: "AB12"}
				got := s
				got.Query, got.Header, got.Cookies, got.Body = nil, nil, nil, nil
				if !reflect.DeepEqual(got, want) {
					t.Errorf("got  %+v\nwant %+v", got, want)
				}
				if s.Query["t"][0] != "v4.x-y_z" || s.Query["lang"][0] != "en" {
					t.Errorf("query %v", s.Query)
				}
				if _, ok := s.Header["Host"]; ok {
					t.Error("Host left in the header map; net/http moves it to Request.Host")
				}
			},
		},
		{
			name: "a comma-separated header stays one value",
			ev: func() events.APIGatewayV2HTTPRequest {
				ev := event("GET", "/g/AB12", "")
				ev.Headers["accept-language"] = "de-DE,en;q=0.8"
				ev.Headers["x-request-id"] = "req-1"
				return ev
			},
			check: func(t *testing.T, s seen) {
				if got := s.Header["Accept-Language"]; !reflect.DeepEqual(got, []string{"de-DE,en;q=0.8"}) {
					t.Errorf("Accept-Language = %q", got)
				}
				if got := s.Header["X-Request-Id"]; !reflect.DeepEqual(got, []string{"req-1"}) {
					t.Errorf("X-Request-Id = %q", got)
				}
			},
		},
		{
			name: "cookies",
			ev: func() events.APIGatewayV2HTTPRequest {
				ev := event("GET", "/g/AB12", "")
				ev.Cookies = []string{"a=1", "session=xyz"}
				return ev
			},
			check: func(t *testing.T, s seen) {
				if !reflect.DeepEqual(s.Cookies, map[string]string{"a": "1", "session": "xyz"}) {
					t.Errorf("cookies %v", s.Cookies)
				}
			},
		},
		{
			name: "text body",
			ev: func() events.APIGatewayV2HTTPRequest {
				ev := event("POST", "/api/games/AB12/actions", "")
				ev.Headers["content-type"] = "application/json"
				ev.Headers["authorization"] = "Bearer tok"
				ev.Body = `{"action":{"type":"roll"},"key":"k-12345678"}`
				return ev
			},
			check: func(t *testing.T, s seen) {
				if string(s.Body) != `{"action":{"type":"roll"},"key":"k-12345678"}` || s.ContentLength != int64(len(s.Body)) {
					t.Errorf("body %q length %d", s.Body, s.ContentLength)
				}
				if s.Method != "POST" || s.PathID != "AB12" || s.Header["Authorization"][0] != "Bearer tok" {
					t.Errorf("got %+v", s)
				}
			},
		},
		{
			name: "base64 body",
			ev: func() events.APIGatewayV2HTTPRequest {
				ev := event("POST", "/api/games/AB12/actions", "")
				ev.Body, ev.IsBase64Encoded = base64.StdEncoding.EncodeToString(png), true
				return ev
			},
			check: func(t *testing.T, s seen) {
				if !bytes.Equal(s.Body, png) || s.ContentLength != int64(len(png)) {
					t.Errorf("body %x length %d", s.Body, s.ContentLength)
				}
			},
		},
		{
			name: "form body, base64 as API Gateway sends it",
			ev: func() events.APIGatewayV2HTTPRequest {
				ev := event("POST", "/api/games/AB12/actions", "")
				ev.Headers["content-type"] = "application/x-www-form-urlencoded"
				ev.Body, ev.IsBase64Encoded = base64.StdEncoding.EncodeToString([]byte("name=%D0%AF&x=1")), true
				return ev
			},
			check: func(t *testing.T, s seen) {
				if string(s.Body) != "name=%D0%AF&x=1" {
					t.Errorf("body %q", s.Body)
				}
			},
		},
		{
			name: "escaped path keeps its escaping",
			ev:   func() events.APIGatewayV2HTTPRequest { return event("GET", "/g/a%2Fb", "") },
			check: func(t *testing.T, s seen) {
				if s.Path != "/g/a/b" || s.RawPath != "/g/a%2Fb" || s.PathID != "a/b" {
					t.Errorf("path %q raw %q id %q", s.Path, s.RawPath, s.PathID)
				}
			},
		},
		{
			name: "no raw path: the context's path; no raw query: the parameters",
			ev: func() events.APIGatewayV2HTTPRequest {
				ev := event("get", "/g/AB12", "")
				ev.RawPath = ""
				ev.QueryStringParameters = map[string]string{"t": "a b"}
				return ev
			},
			check: func(t *testing.T, s seen) {
				if s.Method != "GET" || s.Path != "/g/AB12" || s.RawQuery != "t=a+b" {
					t.Errorf("got %+v", s)
				}
			},
		},
		{
			name: "no host header: the API's domain",
			ev: func() events.APIGatewayV2HTTPRequest {
				ev := event("GET", "/", "")
				delete(ev.Headers, "host")
				ev.RequestContext.DomainName = "pbm.example"
				return ev
			},
			check: func(t *testing.T, s seen) {
				if s.Host != "pbm.example" || s.Path != "/" {
					t.Errorf("got %+v", s)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s seen
			resp, err := Serve(context.Background(), capture(&s), tt.ev())
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusNoContent {
				t.Fatalf("status %d, body %q", resp.StatusCode, resp.Body)
			}
			tt.check(t, s)
		})
	}
}

func TestRequestContext(t *testing.T) {
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "lambda")
	var got any
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.Context().Value(key{}) })
	if _, err := Serve(ctx, h, event("GET", "/", "")); err != nil {
		t.Fatal(err)
	}
	if got != "lambda" {
		t.Errorf("the handler's context lost the invocation's values: %v", got)
	}
}

// TestRequestID: the handler's context carries API Gateway's request id,
// which the logs join to the access log by.
func TestRequestID(t *testing.T) {
	var got string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = RequestID(r.Context()) })
	if _, err := Serve(context.Background(), h, event("GET", "/", "")); err != nil {
		t.Fatal(err)
	}
	if got != "Jx9qvhB7oAMEYhQ=" {
		t.Errorf("RequestID in the handler: %q, want the event's Jx9qvhB7oAMEYhQ=", got)
	}
	if id := RequestID(context.Background()); id != "" {
		t.Errorf("RequestID outside a request: %q", id)
	}
}

func TestBadRequests(t *testing.T) {
	called := false
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { called = true })

	bad64 := event("POST", "/api/games/x/actions", "")
	bad64.Body, bad64.IsBase64Encoded = "%%%not base64", true
	for name, ev := range map[string]events.APIGatewayV2HTTPRequest{
		"bad base64": bad64,
		"bad escape": event("GET", "/g/%zz", ""),
	} {
		t.Run(name, func(t *testing.T) {
			resp, err := Serve(context.Background(), h, ev)
			if err != nil || resp.StatusCode != http.StatusBadRequest {
				t.Errorf("got %d, %v; want 400, nil", resp.StatusCode, err)
			}
		})
	}
	if _, err := Serve(context.Background(), h, events.APIGatewayV2HTTPRequest{}); err == nil {
		t.Error("an event without a method was served")
	}
	if called {
		t.Error("handler called for a bad request")
	}
}

func TestResponse(t *testing.T) {
	png := []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 0x0d, 'I', 'H', 'D', 'R'}
	tests := []struct {
		name   string
		method string
		h      http.HandlerFunc
		want   events.APIGatewayV2HTTPResponse
	}{
		{
			name: "JSON as text",
			h: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json; charset=utf-8")
				w.WriteHeader(http.StatusCreated)
				_ = json.NewEncoder(w).Encode(map[string]string{"id": "Я"})
			},
			want: events.APIGatewayV2HTTPResponse{StatusCode: 201, Headers: map[string]string{"Content-Type": "application/json; charset=utf-8"}, Body: "{\"id\":\"Я\"}\n"},
		},
		{
			name: "a picture as base64",
			h: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "image/png")
				_, _ = w.Write(png)
			},
			want: events.APIGatewayV2HTTPResponse{StatusCode: 200, Headers: map[string]string{"Content-Type": "image/png"},
				Body: base64.StdEncoding.EncodeToString(png), IsBase64Encoded: true},
		},
		{
			name: "sniffed content type, as net/http does",
			h: func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.WriteString(w, "<!doctype html><p>Привет</p>")
			},
			want: events.APIGatewayV2HTTPResponse{StatusCode: 200, Headers: map[string]string{"Content-Type": "text/html; charset=utf-8"}, Body: "<!doctype html><p>Привет</p>"},
		},
		{
			name: "text that is not UTF-8 as base64",
			h: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain; charset=koi8-r")
				_, _ = w.Write([]byte{0xf0, 0xd2, 0xc9})
			},
			want: events.APIGatewayV2HTTPResponse{StatusCode: 200, Headers: map[string]string{"Content-Type": "text/plain; charset=koi8-r"},
				Body: base64.StdEncoding.EncodeToString([]byte{0xf0, 0xd2, 0xc9}), IsBase64Encoded: true},
		},
		{
			name: "nothing written: an empty 200",
			h:    func(w http.ResponseWriter, r *http.Request) {},
			want: events.APIGatewayV2HTTPResponse{StatusCode: 200, Headers: map[string]string{}},
		},
		{
			name: "the first status counts",
			h: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusConflict)
				w.WriteHeader(http.StatusInternalServerError)
			},
			want: events.APIGatewayV2HTTPResponse{StatusCode: 409, Headers: map[string]string{}},
		},
		{
			name: "redirect, cookies and repeated headers",
			h: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Add("Set-Cookie", "a=1; Secure")
				w.Header().Add("Set-Cookie", "b=2; HttpOnly")
				w.Header().Add("Vary", "Accept")
				w.Header().Add("Vary", "Accept-Language")
				w.Header()["X-Empty"] = nil
				http.Redirect(w, r, "/g/AB12?t=x", http.StatusSeeOther)
			},
			want: events.APIGatewayV2HTTPResponse{StatusCode: 303,
				Headers: map[string]string{"Location": "/g/AB12?t=x", "Vary": "Accept,Accept-Language"},
				Cookies: []string{"a=1; Secure", "b=2; HttpOnly"}},
		},
		{
			name:   "HEAD gets no body",
			method: "HEAD",
			h: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				_, _ = io.WriteString(w, "hello")
			},
			want: events.APIGatewayV2HTTPResponse{StatusCode: 200, Headers: map[string]string{"Content-Type": "text/plain"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			method := tt.method
			if method == "" {
				method = "GET"
			}
			got, err := Serve(context.Background(), tt.h, event(method, "/x", ""))
			if err != nil {
				t.Fatal(err)
			}
			if got.StatusCode == 303 {
				delete(got.Headers, "Content-Type") // http.Redirect's own choice
				got.Body = ""
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// TestEventJSON decodes an event as the Lambda runtime hands it over (the
// shape of API Gateway's documented payload 2.0 example) and serves it.
func TestEventJSON(t *testing.T) {
	raw := `{
	  "version": "2.0",
	  "routeKey": "POST /api/games/{id}/actions",
	  "rawPath": "/api/games/G7/actions",
	  "rawQueryString": "lang=ru",
	  "cookies": ["c1=v1", "c2=v2"],
	  "headers": {"content-type": "application/json", "accept-language": "ru,en;q=0.5", "host": "abc.execute-api.eu-west-1.amazonaws.com"},
	  "queryStringParameters": {"lang": "ru"},
	  "pathParameters": {"id": "G7"},
	  "requestContext": {
	    "accountId": "123456789012", "apiId": "abc", "domainName": "abc.execute-api.eu-west-1.amazonaws.com",
	    "domainPrefix": "abc", "requestId": "id", "routeKey": "POST /api/games/{id}/actions", "stage": "$default",
	    "time": "12/Mar/2020:19:03:58 +0000", "timeEpoch": 1583348638390,
	    "http": {"method": "POST", "path": "/api/games/G7/actions", "protocol": "HTTP/1.1", "sourceIp": "192.0.2.1", "userAgent": "agent"}
	  },
	  "body": "eyJrZXkiOiJrLTEyMzQ1Njc4In0=",
	  "isBase64Encoded": true
	}`
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal([]byte(raw), &ev); err != nil {
		t.Fatal(err)
	}
	var s seen
	resp, err := Serve(context.Background(), capture(&s), ev)
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("got %d, %v", resp.StatusCode, err)
	}
	if s.PathID != "G7" || string(s.Body) != `{"key":"k-12345678"}` || s.Cookies["c2"] != "v2" ||
		s.Header["Accept-Language"][0] != "ru,en;q=0.5" || s.Query["lang"][0] != "ru" {
		t.Errorf("got %+v", s)
	}
	out, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(out, &back); err != nil || back["statusCode"] != float64(204) {
		t.Errorf("response JSON %s", out)
	}
}

func BenchmarkServe(b *testing.B) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"ok":true}`)
	})
	ev := event("GET", "/api/games/AB12", "t=x")
	ev.Headers["accept-language"] = "ru"
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Serve(ctx, h, ev); err != nil {
			b.Fatal(err)
		}
	}
}
