//go:build linux

package lambdatest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestAPIFunctionLogs: every line the api function logs while serving an
// invocation carries that invocation's Lambda request id ("requestId", as
// in the emulator's START and INVOKE START lines) and API Gateway's request id
// ("apiRequestId", the requestId of the API's access log), so that an
// operator can join a line to its invocation and its access log entry.
// The invocations: a game created (the service logs too), a request
// refused (no token) and one for a path that does not exist.
func TestAPIFunctionLogs(t *testing.T) {
	w := newWorld(t)
	bin := build(t, apiFunction)
	fn := startEmulator(t, buildRIE(t), bin, w.env(apiFunction, filepath.Dir(bin)))

	body, _ := json.Marshal(w.createRequest("logs"))
	create := httptest.NewRequest(http.MethodPost, "/api/games", bytes.NewReader(body))
	create.Header.Set("Content-Type", "application/json")
	requests := []struct {
		route, apiID string
		r            *http.Request
	}{
		{"POST /api/games", "LogsCreate0001=", create},
		{"GET /api/games/{id}", "LogsRefused001=", httptest.NewRequest(http.MethodGet, "/api/games/nosuchgame", nil)},
		{"$default", "LogsNoRoute001=", httptest.NewRequest(http.MethodGet, "/no/such/path", nil)},
	}
	for _, q := range requests {
		fn.serveHTTP(gatewayEvent(t, q.route, q.r, q.apiID))
	}

	// The emulator writes an invocation's END line after it has answered:
	// wait for the last one rather than read the output at once (under
	// load the last END came after the answer, and the test failed).
	var invocations []invocationLog
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		invocations = splitInvocations(fn.out.String())
		if len(invocations) >= len(requests) || time.Now().After(deadline) {
			break
		}
	}
	if len(invocations) != len(requests) {
		t.Fatalf("the emulator shows %d invocations, want %d:\n%s", len(invocations), len(requests), fn.out)
	}
	for i, inv := range invocations {
		want := requests[i].apiID
		if len(inv.lines) == 0 {
			t.Errorf("%s: the function logged nothing", requests[i].route)
		}
		for _, line := range inv.lines {
			var rec map[string]any
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Errorf("%s: a line that is not JSON: %q", requests[i].route, line)
				continue
			}
			if rec["requestId"] != inv.id || rec["apiRequestId"] != want {
				t.Errorf("%s: requestId %v, apiRequestId %v; want %s and %s in %s", requests[i].route,
					rec["requestId"], rec["apiRequestId"], inv.id, want, line)
			}
		}
	}
}

// invocationLog is what the function wrote during one invocation.
type invocationLog struct {
	id    string   // Lambda's request id, from the emulator's INVOKE START line
	lines []string // the function's lines, the emulator's own left out
}

var (
	startLine    = regexp.MustCompile(`\(rapid\) INVOKE START\(requestId: ([^)\s]+)\)`)
	endLine      = regexp.MustCompile(`^END RequestId: `)
	emulatorLine = regexp.MustCompile(`^(\d\d \w{3} \d{4} [\d:,]+ \[\w+\] \(rapid\)|REPORT RequestId: |INIT REPORT|TELEMETRY)`)
)

// splitInvocations splits the emulator's output into its invocations:
// from its INVOKE START line to the END line. The init (the emulator
// starts the function inside the first invocation) logs before it.
func splitInvocations(out string) []invocationLog {
	var invs []invocationLog
	var cur *invocationLog
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case startLine.MatchString(line):
			invs = append(invs, invocationLog{id: startLine.FindStringSubmatch(line)[1]})
			cur = &invs[len(invs)-1]
		case endLine.MatchString(line):
			cur = nil
		case cur != nil && line != "" && !emulatorLine.MatchString(line):
			cur.lines = append(cur.lines, line)
		}
	}
	return invs
}
