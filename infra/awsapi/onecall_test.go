package awsapi

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbmgames/pbm/infra/awsapi/awsapitest"
)

// TestOneCall: a client with OneCall makes its calls as the pooled one
// does (signed, tried again after a server error, the error's code read),
// each on a connection of its own that is closed with its answer.
func TestOneCall(t *testing.T) {
	srv, n := awsapitest.JSONServer(t, "1.1", "ssm", "AmazonSSM", func(i int, in map[string]any) (int, string) {
		if in["Name"] != "/p" {
			t.Errorf("input %v", in)
		}
		if i == 1 {
			return 500, `{"__type":"InternalServerError"}`
		}
		return 200, `{"Parameter":{"Type":"SecureString","Value":"v"}}`
	})
	var conns atomic.Int32
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	api := New(awsapitest.Config(srv.URL), SSM, OneCall, func(o *Options) {
		o.Pause = func(context.Context, time.Duration) error { return nil }
	})
	if _, ok := api.opts.HTTPClient.(oneCall); !ok {
		t.Fatalf("HTTP client %T, want oneCall", api.opts.HTTPClient)
	}
	var out getParameterOutput
	if err := api.JSON(context.Background(), "GetParameter", getParameterInput{"Name": "/p"}, &out); err != nil {
		t.Fatalf("call: %v", err)
	}
	if out.Parameter == nil || out.Parameter.Value != "v" || n.Load() != 2 {
		t.Fatalf("answer %+v after %d requests, want v after 2", out.Parameter, n.Load())
	}
	if conns.Load() != 2 {
		t.Errorf("%d connections for 2 requests", conns.Load())
	}

	// A client of its own is kept.
	own := &http.Client{}
	if c := New(awsapitest.Config(srv.URL), SSM, func(o *Options) { o.HTTPClient = own }, OneCall); c.opts.HTTPClient != own {
		t.Errorf("OneCall replaced the client's own HTTP client with %T", c.opts.HTTPClient)
	}
}

// TestOneCallAnswers: the answer is read whole whether it has a length or
// comes in chunks, the connection is closed with it, and https is spoken
// to an https endpoint.
func TestOneCallAnswers(t *testing.T) {
	handler := func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if string(body) != "ping" || r.Header.Get("X-Test") != "1" || !r.Close {
			t.Errorf("request %q, X-Test %q, close %v", body, r.Header.Get("X-Test"), r.Close)
		}
		if r.URL.Query().Get("chunked") != "" {
			w.Write([]byte("po"))
			w.(http.Flusher).Flush()
		}
		w.Write([]byte("pong"))
	}
	plain := httptest.NewServer(http.HandlerFunc(handler))
	defer plain.Close()
	secure := httptest.NewTLSServer(http.HandlerFunc(handler))
	defer secure.Close()
	roots := x509.NewCertPool()
	roots.AddCert(secure.Certificate())

	for _, tt := range []struct{ url, want string }{
		{plain.URL + "/", "pong"},
		{plain.URL + "/?chunked=1", "popong"},
		{secure.URL + "/", "pong"},
		{secure.URL + "/?chunked=1", "popong"},
	} {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, tt.url, strings.NewReader("ping"))
		req.Header.Set("X-Test", "1")
		resp, err := oneCall{tls: &tls.Config{RootCAs: roots}}.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tt.url, err)
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil || string(body) != tt.want || resp.StatusCode != 200 {
			t.Errorf("%s: %d %q, %v; want %q", tt.url, resp.StatusCode, body, err, tt.want)
		}
		if err := resp.Body.Close(); err != nil {
			t.Errorf("%s: close: %v", tt.url, err)
		}
		if _, err := resp.Body.(*connBody).conn.Write([]byte("x")); err == nil {
			t.Errorf("%s: the connection is open after the answer's close", tt.url)
		}
	}
}

// TestOneCallCanceled: a call whose context ends while it waits for the
// answer returns at once with the context's error.
func TestOneCallCanceled(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }))
	defer srv.Close()
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader("{}"))
	start := time.Now()
	_, err := oneCall{}.Do(req)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("Do = %v after %v, want the deadline at once", err, time.Since(start))
	}
}
