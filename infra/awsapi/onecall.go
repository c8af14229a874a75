package awsapi

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
)

// OneCall is an option for a client that makes one call, or a few, at a
// function's init (config.LoadKeyring's read of the keyring): each
// request goes on a connection of its own, opened for it and closed with
// its answer, written and read on the caller's goroutine. The keyring's
// read is the longest step of the init (issue 16), and an
// http.Transport's first request in a new process is slow: it starts a
// dialling goroutine and each connection's reading and writing ones, and
// sets up HTTP/2. Under the Runtime API harness the read's round trip
// went from 1.1–1.6 ms through the shared client to 0.5–0.9 ms (the
// runtime client's first request, after it, pays some 0.3 ms of what the
// read no longer warms up). The transport's pooled connections are worth
// it for the many calls of an invocation, not for one at init.
//
// It leaves alone a client that has an HTTP client of its own (the
// aws.Config's or a test's), and sends through the shared client when
// the environment names a proxy for the request (HTTPS_PROXY,
// HTTP_PROXY, NO_PROXY), which it does not speak to.
func OneCall(o *Options) {
	if o.HTTPClient == nil {
		o.HTTPClient = oneCall{}
	}
}

// oneCall sends a request on a connection of its own (OneCall).
type oneCall struct {
	// tls is the TLS configuration of https requests (nil: the system's
	// roots); the server name is the request's host.
	tls *tls.Config
}

// Do sends req over HTTP/1.1 on a new connection and returns its answer,
// whose Body closes the connection.
func (c oneCall) Do(req *http.Request) (*http.Response, error) {
	if proxy, err := http.ProxyFromEnvironment(req); err != nil || proxy != nil {
		return defaultHTTP.Do(req)
	}
	ctx := req.Context()
	host, port := req.URL.Hostname(), req.URL.Port()
	secure := req.URL.Scheme == "https"
	switch {
	case req.URL.Scheme != "http" && !secure:
		return nil, fmt.Errorf("awsapi: unsupported scheme %q", req.URL.Scheme)
	case port == "" && secure:
		port = "443"
	case port == "":
		port = "80"
	}
	d := net.Dialer{Timeout: dialTimeout}
	conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", req.Method, req.URL.Redacted(), err)
	}
	// The context's end closes the connection, which ends a pending
	// read or write; the error is then the context's.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	fail := func(err error) (*http.Response, error) {
		stop()
		conn.Close()
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return nil, fmt.Errorf("%s %s: %w", req.Method, req.URL.Redacted(), err)
	}
	if secure {
		cfg := &tls.Config{}
		if c.tls != nil {
			cfg = c.tls.Clone()
		}
		cfg.ServerName, cfg.NextProtos = host, []string{"http/1.1"}
		tc := tls.Client(conn, cfg)
		hctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
		err := tc.HandshakeContext(hctx)
		cancel()
		if err != nil {
			return fail(err)
		}
		conn = tc
	}
	// The connection is this request's alone: the server is told so,
	// and the answer's end is its end. (Connection is not among the
	// headers a SigV4 signature covers.)
	req.Close = true
	if err := req.Write(conn); err != nil {
		return fail(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		return fail(err)
	}
	resp.Body = &connBody{ReadCloser: resp.Body, conn: conn, stop: stop}
	return resp, nil
}

// connBody is an answer's body that closes its connection when closed.
type connBody struct {
	io.ReadCloser
	conn net.Conn
	stop func() bool
	once sync.Once
}

func (b *connBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(func() {
		b.stop()
		err = errors.Join(err, b.conn.Close())
	})
	return err
}
