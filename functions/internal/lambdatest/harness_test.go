//go:build linux

package lambdatest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// runtimeAPI is a Lambda Runtime API (2018-06-01) for one execution
// environment, as Lambda offers it to a custom runtime's bootstrap: the
// runtime long-polls GET /runtime/invocation/next for an event, and posts
// the outcome to /runtime/invocation/{id}/response or …/error, or an init
// failure to /runtime/init/error. It records when the first /next came:
// the end of the init phase.
type runtimeAPI struct {
	srv       *httptest.Server
	functions string // the invoked function's ARN
	queue     chan *invocation
	closing   chan struct{}

	mu        sync.Mutex
	open      map[string]*invocation // handed to the runtime, not answered
	firstNext time.Time
	ready     chan struct{} // closed at the first /next
	initErr   chan outcome  // an /init/error report
}

// invocation is one event handed to the runtime.
type invocation struct {
	id       string
	payload  []byte
	deadline time.Time
	done     chan outcome
}

// outcome is what the runtime reported: a response, or an error of a type.
type outcome struct {
	body      []byte
	errorType string    // Lambda-Runtime-Function-Error-Type of an error; "" for a response
	at        time.Time // when the report came
}

const runtimePrefix = "/2018-06-01/runtime"

func newRuntimeAPI(t *testing.T, functionName string) *runtimeAPI {
	a := &runtimeAPI{
		functions: fmt.Sprintf("arn:aws:lambda:%s:123456789012:function:%s", region, functionName),
		queue:     make(chan *invocation),
		closing:   make(chan struct{}),
		open:      map[string]*invocation{},
		ready:     make(chan struct{}),
		initErr:   make(chan outcome, 1),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+runtimePrefix+"/invocation/next", a.next)
	mux.HandleFunc("POST "+runtimePrefix+"/invocation/{id}/response", a.report(""))
	mux.HandleFunc("POST "+runtimePrefix+"/invocation/{id}/error", a.report("error"))
	mux.HandleFunc("POST "+runtimePrefix+"/init/error", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		select {
		case a.initErr <- outcome{body: body, errorType: r.Header.Get("Lambda-Runtime-Function-Error-Type")}:
		default:
		}
		accepted(w)
	})
	a.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		close(a.closing) // ends a pending /next
		a.srv.Close()
	})
	return a
}

// addr is AWS_LAMBDA_RUNTIME_API's value: host:port, no scheme.
func (a *runtimeAPI) addr() string { return strings.TrimPrefix(a.srv.URL, "http://") }

func accepted(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusAccepted)
	_, _ = w.Write([]byte(`{"status":"OK"}`))
}

// runtimeError answers as the Runtime API does a request it refuses.
func runtimeError(w http.ResponseWriter, status int, errorType, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"errorType": errorType, "errorMessage": message})
}

func (a *runtimeAPI) next(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	if a.firstNext.IsZero() {
		a.firstNext = time.Now()
		close(a.ready)
	}
	a.mu.Unlock()
	select {
	case inv := <-a.queue:
		a.mu.Lock()
		a.open[inv.id] = inv
		a.mu.Unlock()
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Lambda-Runtime-Aws-Request-Id", inv.id)
		h.Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(inv.deadline.UnixMilli(), 10))
		h.Set("Lambda-Runtime-Invoked-Function-Arn", a.functions)
		h.Set("Lambda-Runtime-Trace-Id", fmt.Sprintf("Root=1-%08x-%s;Parent=%s;Sampled=0;Lineage=1:%s:0",
			time.Now().Unix(), randomHex(12), randomHex(8), randomHex(4)))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(inv.payload)
	case <-r.Context().Done():
	case <-a.closing:
	}
}

func (a *runtimeAPI) report(errorType string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			runtimeError(w, http.StatusBadRequest, "InvalidRequest", err.Error())
			return
		}
		id := r.PathValue("id")
		a.mu.Lock()
		inv, ok := a.open[id]
		delete(a.open, id)
		a.mu.Unlock()
		if !ok {
			runtimeError(w, http.StatusBadRequest, "InvalidRequestID", "Invalid request ID")
			return
		}
		if errorType != "" {
			errorType = r.Header.Get("Lambda-Runtime-Function-Error-Type")
			if errorType == "" {
				errorType = "Runtime.Unknown"
			}
		}
		inv.done <- outcome{body: body, errorType: errorType, at: time.Now()}
		accepted(w)
	}
}

// invoke hands payload to the runtime and waits for its outcome.
func (a *runtimeAPI) invoke(ctx context.Context, payload []byte, timeout time.Duration) (outcome, error) {
	inv := &invocation{id: randomUUID(), payload: payload, deadline: time.Now().Add(timeout), done: make(chan outcome, 1)}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	select {
	case a.queue <- inv:
	case <-ctx.Done():
		return outcome{}, fmt.Errorf("the runtime did not ask for the invocation: %w", ctx.Err())
	}
	select {
	case o := <-inv.done:
		return o, nil
	case <-ctx.Done():
		return outcome{}, fmt.Errorf("no answer: %w", ctx.Err())
	}
}

// startBootstrap starts bin as Lambda starts a function's bootstrap in a
// new execution environment, with env, under a new Runtime API; the
// process's output is kept in out. started is when the process was
// started (the Runtime API already listening). The caller kills p.
func startBootstrap(t *testing.T, f function, bin string, env []string) (api *runtimeAPI, p *process, out *tail, started time.Time) {
	t.Helper()
	api = newRuntimeAPI(t, "pbm-"+f.id)
	cmd := exec.Command(bin)
	cmd.Dir = filepath.Dir(bin)
	cmd.Env = append(env[:len(env):len(env)], "AWS_LAMBDA_RUNTIME_API="+api.addr())
	out = &tail{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	started = time.Now()
	p, err := startProcess(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return api, p, out, started
}

// coldStart starts bin as Lambda starts a function's bootstrap in a new
// execution environment for an invocation that is waiting (an on-demand
// cold start: the event is there for the runtime's first GET of /next),
// under a new Runtime API, and returns the time from the process's start
// to the invocation's response (firstResponse), to its first GET of /next
// (initDuration), the CPU time its threads had run by the response
// (cpu: less swayed than the wall clock by what else the machine runs),
// and the outcome; it then ends the process.
func coldStart(t *testing.T, f function, bin string, env []string, payload []byte) (firstResponse, initDuration, cpu time.Duration, o outcome) {
	t.Helper()
	api, p, out, start := startBootstrap(t, f, bin, env)
	defer p.kill(t)
	type invoked struct {
		o   outcome
		err error
	}
	done := make(chan invoked, 1)
	go func() {
		o, err := api.invoke(context.Background(), payload, time.Duration(f.timeout)*time.Second+20*time.Second)
		done <- invoked{o, err}
	}()
	var r invoked
	select {
	case r = <-done:
		cpu = cpuTime(p.cmd.Process.Pid)
	case o := <-api.initErr:
		t.Fatalf("%s: init failed: %s %s\n%s", f.id, o.errorType, o.body, out)
	case <-p.exited:
		t.Fatalf("%s exited before answering: %v\n%s", f.id, p.err, out)
	}
	if r.err != nil {
		t.Fatalf("%s: invoke: %v\n%s", f.id, r.err, out)
	}
	if r.o.errorType != "" {
		t.Fatalf("%s: the function failed: %s %s\n%s", f.id, r.o.errorType, r.o.body, out)
	}
	api.mu.Lock()
	initDuration = api.firstNext.Sub(start)
	api.mu.Unlock()
	return r.o.at.Sub(start), initDuration, cpu, r.o
}

// cpuTime is the CPU time the threads of process pid have run so far
// (/proc/<pid>/task/*/schedstat, in nanoseconds), or 0 if it cannot be
// read.
func cpuTime(pid int) time.Duration {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	var ns int64
	for _, task := range tasks {
		b, err := os.ReadFile(filepath.Join(dir, task.Name(), "schedstat"))
		if err != nil {
			continue // a thread that ended
		}
		if f := strings.Fields(string(b)); len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			ns += n
		}
	}
	return time.Duration(ns)
}
