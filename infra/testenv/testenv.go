// Package testenv starts the real servers that tests talk to on loopback
// (SPEC section 5): dynalite for the DynamoDB API and aws-ses-v2-local for
// the SES v2 API, both from the project's node_modules (`npm ci`).
//
// Each server is started at most once per test process, on a free port of
// 127.0.0.1, in its own process group. A package that uses them calls Main
// from its TestMain so that the servers are killed when its tests end:
//
//	func TestMain(m *testing.M) { testenv.Main(m) }
//
// On Linux the servers also get SIGKILL when the test binary dies, however
// it dies. Setting DYNALITE_ENDPOINT or SES_ENDPOINT uses a server already
// running there instead of starting one.
package testenv

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
)

// startTimeout bounds how long a server may take to become ready.
const startTimeout = 60 * time.Second

var (
	mu      sync.Mutex
	started []*server
)

// shared is a server the tests of a process share: started on first use
// (startWithRetry), or the one running at the address in the environment
// variable env if set.
type shared struct {
	name string // of the node_modules binary
	// script, if set, is run by node in the binary's stead: a file of
	// this package, relative to the repository's root.
	script string
	env    string
	args   func(port int) []string
	ready  readyFunc

	once     sync.Once
	endpoint string
	err      error
	srv      *server // the process started; nil for one from env
}

var (
	dynalite = &shared{name: "dynalite", script: "infra/testenv/dynalite.cjs", env: "DYNALITE_ENDPOINT",
		args: func(port int) []string {
			return []string{"--host", "127.0.0.1", "--port", strconv.Itoa(port),
				"--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0"}
		},
		ready: waitForLine("Dynalite listening at")}
	sesLocal = &shared{name: "aws-ses-v2-local", env: "SES_ENDPOINT",
		args: func(port int) []string {
			return []string{"--host", "127.0.0.1", "--port", strconv.Itoa(port)}
		},
		ready: waitForHTTP("/store")}
)

// use returns the server's endpoint, starting it on first use; a server
// that could not start fails t.
func (s *shared) use(t testing.TB) string {
	t.Helper()
	s.once.Do(func() {
		if ep := os.Getenv(s.env); ep != "" {
			s.endpoint = ep
			return
		}
		s.endpoint, s.srv, s.err = startWithRetry(s.name, s.script, s.args, s.ready)
	})
	if s.err != nil {
		t.Fatalf("testenv: %s: %v", s.name, s.err)
	}
	if err := s.gone(); err != nil {
		t.Fatalf("testenv: %v", err)
	}
	return s.endpoint
}

// gone says why the server started here no longer runs, with the end of
// its stderr; nil while it runs (or for one from the environment). A
// test after it died would otherwise see only its port refuse.
func (s *shared) gone() error {
	if s.srv == nil {
		return nil
	}
	select {
	case <-s.srv.exited:
		return fmt.Errorf("%s exited while the tests ran (%v); the end of its stderr:\n%s", s.name, s.srv.err, s.srv.stderr.String())
	default:
		return nil
	}
}

// Main runs the tests and then kills the servers they started. Call it from
// TestMain.
func Main(m *testing.M) {
	code := m.Run()
	StopAll()
	os.Exit(code)
}

// StopAll kills every server this process started. Main calls it; later
// calls to Dynalite or SESLocal do not start them again.
func StopAll() {
	mu.Lock()
	defer mu.Unlock()
	for _, s := range started {
		s.stop()
	}
	started = nil
}

// Dynalite returns the endpoint ("http://127.0.0.1:P") of a dynalite server
// with tables created, deleted and updated at once. It starts the server on
// first use, or uses DYNALITE_ENDPOINT if set.
func Dynalite(t testing.TB) string {
	t.Helper()
	return dynalite.use(t)
}

// SESLocal returns the endpoint ("http://127.0.0.1:P") of an
// aws-ses-v2-local server. GET /store on it lists what was sent and POST
// /clear-store empties it. It starts the server on first use, or uses
// SES_ENDPOINT if set.
func SESLocal(t testing.TB) string {
	t.Helper()
	return sesLocal.use(t)
}

// LocalAWS is the AWS SDK configuration of a client of a local server
// that speaks an AWS API at endpoint ("http://127.0.0.1:P": dynalite,
// aws-ses-v2-local): region us-east-1 and static dummy credentials, and
// nothing read from the environment or the shared configuration files,
// so that a developer's own AWS settings never reach a test.
func LocalAWS(endpoint string) aws.Config {
	return aws.Config{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
	}
}

// DynamoClient returns the SDK's DynamoDB client for endpoint (from
// Dynalite), configured by LocalAWS; optFns adjust its options
// (o.HTTPClient to see every request, o.APIOptions to see every input).
func DynamoClient(t testing.TB, endpoint string, optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	t.Helper()
	return dynamodb.NewFromConfig(LocalAWS(endpoint), optFns...)
}

// SESClient returns the SDK's SES v2 client for endpoint (from SESLocal),
// configured by LocalAWS; optFns adjust its options.
func SESClient(t testing.TB, endpoint string, optFns ...func(*sesv2.Options)) *sesv2.Client {
	t.Helper()
	return sesv2.NewFromConfig(LocalAWS(endpoint), optFns...)
}

// CountingTransport is an http.RoundTripper that counts the requests it
// passes on to Base (http.DefaultTransport if nil).
type CountingTransport struct {
	Base http.RoundTripper
	n    atomic.Int64
}

// RoundTrip counts the request and passes it on.
func (c *CountingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	base := c.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}

// Count is the number of requests so far.
func (c *CountingTransport) Count() int64 { return c.n.Load() }

// Reset sets the count to zero and returns what it was.
func (c *CountingTransport) Reset() int64 { return c.n.Swap(0) }

// RepoRoot is the directory holding go.mod, found by walking up from the
// working directory (a package's directory under go test).
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod in the working directory or above it")
		}
		dir = parent
	}
}

// server is one started child process.
type server struct {
	name   string
	cmd    *exec.Cmd
	exited chan struct{} // closed when the process has been waited for
	err    error         // Wait's result, set before exited is closed
	stderr *tailBuffer
}

// readyFunc waits until the server at endpoint answers, reading its stdout;
// it returns early if the process exits.
type readyFunc func(s *server, endpoint string, stdout io.ReadCloser) error

// startWithRetry starts the named node_modules binary on a free port,
// trying a few ports in case another process takes the chosen one first.
func startWithRetry(name, script string, args func(port int) []string, ready readyFunc) (string, *server, error) {
	bin, err := binPath(name)
	if err != nil {
		return "", nil, err
	}
	var before []string // the script node runs, if any
	if script != "" {
		root, err := RepoRoot()
		if err != nil {
			return "", nil, err
		}
		if bin, err = exec.LookPath("node"); err != nil {
			return "", nil, err
		}
		before = []string{filepath.Join(root, script)}
	}
	var lastErr error
	for range 3 {
		port, err := freePort()
		if err != nil {
			return "", nil, err
		}
		endpoint := "http://127.0.0.1:" + strconv.Itoa(port)
		var srv *server
		srv, lastErr = start(name, bin, append(before, args(port)...), endpoint, ready)
		if lastErr == nil {
			return endpoint, srv, nil
		}
		// Another process took the port between freePort and the
		// server's bind: dynalite says EADDRINUSE; aws-ses-v2-local,
		// which asks its server for the address it failed to get, says
		// "Server does not have an address".
		if msg := lastErr.Error(); !strings.Contains(msg, "EADDRINUSE") && !strings.Contains(msg, "Server does not have an address") {
			break
		}
	}
	return "", nil, lastErr
}

func binPath(name string) (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(root, "node_modules", ".bin", name)
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("%s is missing: run `npm ci` in %s (or `make test`), which installs the test servers pinned in package-lock.json", bin, root)
	}
	if _, err := exec.LookPath("node"); err != nil {
		return "", fmt.Errorf("node is not on PATH, and %s needs it: install Node.js", name)
	}
	return bin, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// start runs bin and waits until ready says it serves. The process is
// started and waited for on one goroutine locked to its OS thread, because
// Linux sends the parent-death signal when the thread that started the
// child exits, not only when the whole process does.
func start(name, bin string, args []string, endpoint string, ready readyFunc) (*server, error) {
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = sysProcAttr()
	// An os.Pipe rather than cmd.StdoutPipe: Wait runs concurrently with
	// the reads and must not close the reading end under them.
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = stdoutW
	s := &server{name: name, cmd: cmd, exited: make(chan struct{}), stderr: &tailBuffer{max: 8 << 10}}
	cmd.Stderr = s.stderr

	startErr := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// The thread stays locked (and so alive) until the child has exited.
		if err := cmd.Start(); err != nil {
			startErr <- err
			runtime.UnlockOSThread()
			return
		}
		startErr <- nil
		s.err = cmd.Wait()
		close(s.exited)
		runtime.UnlockOSThread()
	}()
	err = <-startErr
	stdoutW.Close() // the child holds its own copy
	if err != nil {
		stdout.Close()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	mu.Lock()
	started = append(started, s)
	mu.Unlock()

	if err := ready(s, endpoint, stdout); err != nil {
		s.stop()
		return nil, fmt.Errorf("%s %s: %w; its stderr:\n%s", bin, strings.Join(args, " "), err, s.stderr.String())
	}
	return s, nil
}

func (s *server) stop() {
	select {
	case <-s.exited:
		return
	default:
	}
	killGroup(s.cmd.Process)
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
	}
}

// waitForLine waits for a line of stdout containing marker, then keeps
// draining stdout so that the server never blocks on a full pipe.
func waitForLine(marker string) readyFunc {
	return func(s *server, _ string, stdout io.ReadCloser) error {
		found := make(chan struct{})
		go func() {
			sc := bufio.NewScanner(stdout)
			seen := false
			for sc.Scan() {
				if !seen && strings.Contains(sc.Text(), marker) {
					seen = true
					close(found)
				}
			}
			io.Copy(io.Discard, stdout)
			stdout.Close()
		}()
		select {
		case <-found:
			return nil
		case <-s.exited:
			return fmt.Errorf("exited (%v) before printing %q", s.err, marker)
		case <-time.After(startTimeout):
			return fmt.Errorf("did not print %q within %v", marker, startTimeout)
		}
	}
}

// waitForHTTP polls GET path on the endpoint until it answers 200.
func waitForHTTP(path string) readyFunc {
	return func(s *server, endpoint string, stdout io.ReadCloser) error {
		go func() {
			io.Copy(io.Discard, stdout)
			stdout.Close()
		}()
		client := &http.Client{Timeout: 2 * time.Second}
		deadline := time.Now().Add(startTimeout)
		var last error
		for time.Now().Before(deadline) {
			resp, err := client.Get(endpoint + path)
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					return nil
				}
				err = fmt.Errorf("GET %s: %s", path, resp.Status)
			}
			last = err
			select {
			case <-s.exited:
				return fmt.Errorf("exited (%v) before answering GET %s", s.err, path)
			case <-time.After(50 * time.Millisecond):
			}
		}
		return fmt.Errorf("did not answer GET %s within %v: %v", path, startTimeout, last)
	}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if over := b.buf.Len() - b.max; over > 0 {
		b.buf.Next(over)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
