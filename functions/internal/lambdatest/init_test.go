//go:build linux

package lambdatest

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
)

// coldStarts is how many cold starts of each function TestColdStart times.
const coldStarts = 7

// TestColdStart measures the api function's init duration, the time from
// its process's start to its first GET of /invocation/next (which in the
// api function includes reading the keyring from SSM), beside a
// hello-world Go function built the same way, both under the Runtime API
// harness, and reports them as figures (no assertion on time). Each cold
// start is followed by one invocation: the home page for the api, any
// event for hello.
func TestColdStart(t *testing.T) {
	w := newWorld(t)
	apiBin, helloBin := build(t, apiFunction), build(t, helloFunction)
	home := apiEvent(t, "home.json", nil)

	var apiInit, helloInit []time.Duration
	for i := 0; i < coldStarts; i++ { // alternated, so that both see the same machine
		d, o := coldStart(t, apiFunction, apiBin, w.env(apiFunction, filepath.Dir(apiBin)), home)
		apiInit = append(apiInit, d)
		var r events.APIGatewayV2HTTPResponse
		if err := json.Unmarshal(o.body, &r); err != nil || r.StatusCode != http.StatusOK || !strings.Contains(r.Body, "</html>") {
			t.Fatalf("api: the home page after a cold start: %d, %v, %.200s", r.StatusCode, err, o.body)
		}

		d, o = coldStart(t, helloFunction, helloBin, w.env(helloFunction, filepath.Dir(helloBin)), []byte(`{"n":1}`))
		helloInit = append(helloInit, d)
		if string(o.body) != `{"hello":"world"}` {
			t.Fatalf("hello answered %s", o.body)
		}
	}
	if got := w.ssm.calls.Load(); got != coldStarts {
		t.Errorf("the keyring was read %d times in %d cold starts", got, coldStarts)
	}

	size := func(bin string) float64 {
		st, err := os.Stat(bin)
		if err != nil {
			t.Fatal(err)
		}
		return float64(st.Size()) / 1e6
	}
	a, h := summary(apiInit), summary(helloInit)
	t.Logf("init duration (process start to first /invocation/next), %d cold starts each, median [min–max]:", coldStarts)
	t.Logf("  api   (%4.1f MB): %v [%v–%v]", size(apiBin), a.median, a.min, a.max)
	t.Logf("  hello (%4.1f MB): %v [%v–%v]", size(helloBin), h.median, h.min, h.max)
	t.Logf("  api − hello, medians: %v", a.median-h.median)
}

type stats struct{ min, median, max time.Duration }

func summary(ds []time.Duration) stats {
	s := slices.Clone(ds)
	slices.Sort(s)
	r := func(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }
	return stats{min: r(s[0]), median: r(s[len(s)/2]), max: r(s[len(s)-1])}
}

// TestInitFailure: an api function whose keyring parameter does not exist
// ends its init with an error naming SSM's answer and the parameter, before
// it asks for any invocation, as Lambda then reports an init failure.
func TestInitFailure(t *testing.T) {
	w := newWorld(t)
	bin := build(t, apiFunction)
	f := apiFunction
	f.vars = map[string]string{"LINK_KEYS_PARAMETER": "/pbm/no-such-keys"}
	api := newRuntimeAPI(t, "pbm-"+f.id)
	cmd := exec.Command(bin)
	cmd.Dir = filepath.Dir(bin)
	cmd.Env = append(w.env(f, filepath.Dir(bin)), "AWS_LAMBDA_RUNTIME_API="+api.addr())
	out := &tail{max: 16 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	p, err := startProcess(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer p.kill(t)
	select {
	case <-p.exited:
	case <-api.ready:
		t.Fatalf("init went on without its keyring:\n%s", out)
	case <-time.After(20 * time.Second):
		t.Fatalf("init neither failed nor finished in 20 s:\n%s", out)
	}
	var exit *exec.ExitError
	if !errors.As(p.err, &exit) || exit.ExitCode() == 0 {
		t.Errorf("exit: %v, want a failure", p.err)
	}
	if log := out.String(); !strings.Contains(log, "ParameterNotFound") || !strings.Contains(log, "/pbm/no-such-keys") {
		t.Errorf("the init's log does not name SSM's error and the parameter:\n%s", log)
	}
}
