//go:build linux

package lambdatest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
)

// The Runtime Interface Emulator the tests run the functions under: its
// command, at the version the Go module proxy serves (the project's
// releases have no module version tags).
const (
	riePackage = "github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie"
	rieVersion = "v0.0.0-20261030222936-bef5c4ba774d"
)

// buildRIE builds the emulator (go install pkg@version, outside this
// module) into the test's temporary directory. LAMBDA_RIE names an
// emulator binary to use instead.
func buildRIE(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("LAMBDA_RIE"); bin != "" {
		return bin
	}
	dir := t.TempDir()
	cmd := exec.Command("go", "install", riePackage+"@"+rieVersion)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOBIN="+dir, "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install %s@%s: %v\n%s", riePackage, rieVersion, err, msg)
	}
	return filepath.Join(dir, "aws-lambda-rie")
}

// emulator is a function's bootstrap running under aws-lambda-rie. The
// emulator starts the bootstrap at the first invoke (the cold start) and
// keeps it for the next ones, as a warm Lambda execution environment.
type emulator struct {
	t         *testing.T
	proc      *process
	invokeURL string // the invoke API's URL
	out       *tail  // the emulator's log lines and the function's output
}

// startEmulator runs bootstrap (built by build) under the emulator with
// the environment env, and stops both when the test ends.
func startEmulator(t *testing.T, rie, bootstrap string, env []string) *emulator {
	t.Helper()
	var lastOut string
	for range 3 { // a port taken between freeAddr and the emulator's listen
		invokeAddr, runtimeAddr := freeAddr(t), freeAddr(t)
		cmd := exec.Command(rie,
			"--runtime-interface-emulator-address", invokeAddr,
			"--runtime-api-address", runtimeAddr,
			bootstrap)
		cmd.Dir = filepath.Dir(bootstrap) // as /var/task
		cmd.Env = env
		out := &tail{max: 64 << 10}
		cmd.Stdout, cmd.Stderr = out, out
		p, err := startProcess(cmd)
		if err != nil {
			t.Fatalf("start %s: %v", rie, err)
		}
		e := &emulator{t: t, proc: p, invokeURL: "http://" + invokeAddr + "/2015-03-31/functions/function/invocations", out: out}
		if err := waitListening(invokeAddr, p); err == nil {
			t.Cleanup(func() {
				p.kill(t)
				if t.Failed() {
					t.Logf("emulator and function output:\n%s", out)
				}
			})
			return e
		}
		p.kill(t)
		lastOut = out.String()
		if !strings.Contains(lastOut, "address already in use") {
			break
		}
	}
	t.Fatalf("aws-lambda-rie did not start:\n%s", lastOut)
	return nil
}

// waitListening waits until addr accepts connections, or p exits.
func waitListening(addr string, p *process) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		select {
		case <-p.exited:
			return errExited
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return err
		}
	}
}

// invoke makes one synchronous invocation (RequestResponse) with payload
// and returns the function's answer. A function error fails the test.
func (e *emulator) invoke(payload []byte) []byte {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.invokeURL, bytes.NewReader(payload))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("invoke: %v\n%s", err, e.out)
	}
	defer resp.Body.Close()
	body := readAll(e.t, resp.Body)
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("invoke: %s: %s", resp.Status, body)
	}
	var fnErr struct {
		ErrorMessage string `json:"errorMessage"`
		ErrorType    string `json:"errorType"`
	}
	if json.Unmarshal(body, &fnErr) == nil && fnErr.ErrorType != "" {
		e.t.Fatalf("the function failed: %s: %s", fnErr.ErrorType, fnErr.ErrorMessage)
	}
	return body
}

// initReport is the init duration the emulator logged for the cold start
// (its "INIT REPORT" line: from the init phase's start to the runtime's
// first /next), or "" before any.
func (e *emulator) initReport() string {
	m := initReportRE.FindStringSubmatch(e.out.String())
	if m == nil {
		return ""
	}
	ms, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return m[1] + " ms"
	}
	return time.Duration(ms * float64(time.Millisecond)).Round(10 * time.Microsecond).String()
}

var initReportRE = regexp.MustCompile(`INIT REPORT\(durationMs: ([0-9.]+)`)

// httpResponse is what API Gateway makes of an HTTP API function's answer.
type httpResponse struct {
	status  int
	headers map[string]string
	body    []byte // as sent, base64 decoded
}

// content is the body as a client reads it: gunzipped when the answer
// was compressed for a client that accepts gzip (issue 16), as the
// testdata's browser events do.
func (r httpResponse) content(t testing.TB) []byte {
	t.Helper()
	if r.headers["content-encoding"] != "gzip" {
		return r.body
	}
	zr, err := gzip.NewReader(bytes.NewReader(r.body))
	if err != nil {
		t.Fatalf("Content-Encoding gzip and the body is not gzip: %v", err)
	}
	body, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	return body
}

// serveHTTP invokes the api function with an API Gateway event and
// decodes its answer (payload format 2.0).
func (e *emulator) serveHTTP(event []byte) httpResponse {
	e.t.Helper()
	out := e.invoke(event)
	var r events.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(out, &r); err != nil {
		e.t.Fatalf("not an HTTP API answer: %v: %.300s", err, out)
	}
	body := []byte(r.Body)
	if r.IsBase64Encoded {
		var err error
		if body, err = base64.StdEncoding.DecodeString(r.Body); err != nil {
			e.t.Fatalf("isBase64Encoded and the body is not base64: %v", err)
		}
	}
	h := map[string]string{}
	for k, v := range r.Headers {
		h[strings.ToLower(k)] = v
	}
	return httpResponse{status: r.StatusCode, headers: h, body: body}
}
