//go:build linux

package lambdatest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
)

// coldStarts is how many cold starts of each function TestColdStart times.
const coldStarts = 21

// coldCase is one function TestColdStart starts cold: the event of its
// first invocation, what a good answer to it looks like, and the hello
// world it is measured beside.
type coldCase struct {
	f       function
	payload []byte
	check   func(body []byte) error
	hello   function
}

// TestColdStart measures every function's cold start to its first
// answer, the time from its process's start to the response of the
// invocation that was waiting for it (as Lambda's on-demand cold start
// has one waiting), beside a hello-world Go function built the same way
// that loads the SDK's configuration, makes the same SDK clients and
// answers the same event (testdata/hello), both under the Runtime API
// harness, and reports them as figures (no assertion on time). The runs
// are alternated, each function's cold start followed at once by one of
// its hello world's, so that both see the same machine; a function's
// ratio is the median of its runs' ratios to the hello run beside each
// (on a busy machine steadier than the ratio of the medians, also
// shown). The events: the home page and a seat's page (a mail's link to
// a started game: the keyring, the game and its talk read, the page
// drawn) for the api, an empty stream batch for notify, the scheduled
// event for sweep (an empty table: nothing is due), an empty SNS batch
// for bounces. The seat's page and the sweep are measured a second time,
// each beside a hello world that also makes the requests it makes
// (testdata/hello/apireads.go, sweepreads.go), and the hello world that
// makes one read is measured beside the one that makes none: what one round trip
// to the table adds to a hello world. Each of the sweep's cold starts
// comes a mail period after the sweep before it, as every scheduled
// sweep does (sweepAfterAPeriod). The init (to the first GET of
// /invocation/next) is shown too, and the bare hello world, which links
// no SDK, for scale.
func TestColdStart(t *testing.T) {
	w := newWorld(t)
	w.untimed = true // timed on the direct path (world.iamChecked)
	scheduled, err := os.ReadFile(filepath.Join("testdata", "scheduled.json"))
	if err != nil {
		t.Fatal(err)
	}
	home := apiEvent(t, "home.json", nil)
	seatPage := apiEvent(t, "seatpage.json", w.seatLink())
	checkSeatPage := pageAnswer("the seat's page", "<svg")
	cases := []coldCase{
		{apiFunction, home, pageAnswer("the home page", "</html>"), helloAPIFunction},
		// The page a player opens from a mail's link: the keyring read
		// (SSM), the token checked, the game read, the page drawn.
		{apiFunction, seatPage, checkSeatPage, helloAPIFunction},
		// The seat's page again, beside a hello world that makes its
		// requests too: what the page does besides those round trips.
		{apiFunction, seatPage, checkSeatPage, helloAPIReadsFunction},
		{notifyFunction, []byte(`{"Records":[]}`), func(body []byte) error {
			var r events.DynamoDBEventResponse
			if err := json.Unmarshal(body, &r); err != nil {
				return err
			}
			if len(r.BatchItemFailures) != 0 {
				return fmt.Errorf("failures in an empty batch")
			}
			return nil
		}, helloNotifyFunction},
		{sweepFunction, scheduled, func([]byte) error { return nil }, helloSweepFunction},
		// The sweep reads the table at every scheduled event (four
		// queries at once, then the mail period's cursor, listing and
		// cursor write): beside a hello world that makes those requests
		// too, its ratio is what it does besides those round trips.
		{sweepFunction, scheduled, func([]byte) error { return nil }, helloSweepReadsFunction},
		// What one round trip to the table adds to a cold start here:
		// the hello world that makes one read beside the one that
		// makes none.
		{helloSweepReadFunction, scheduled, nil, helloSweepFunction},
		{bouncesFunction, []byte(`{"Records":[]}`), func([]byte) error { return nil }, helloBouncesFunction},
	}
	bins, helloBins := make([]string, len(cases)), make([]string, len(cases))
	built := map[string]string{} // by function id: the sweep is built once
	for i, c := range cases {
		if built[c.f.id] == "" {
			built[c.f.id] = build(t, c.f)
		}
		bins[i], helloBins[i] = built[c.f.id], build(t, c.hello)
	}
	bareBin := build(t, helloFunction)

	type times struct{ answer, init, cpu []time.Duration }
	fn, beside := make([]times, len(cases)), make([]times, len(cases))
	// Every function reads the keyring at its first use, not at init
	// (lambdaenv.Load): of these first invocations only the seat's page
	// needs a key, and reads it once (its hello world making its requests
	// does too); the others (the home page, an empty stream batch, an
	// empty table's sweep, an empty SNS batch) read none.
	start := func(f function, bin string, payload []byte, check func([]byte) error, into *times) {
		reads := w.ssm.Reads.Load()
		answer, init, cpu, o := coldStart(t, f, bin, w.env(f, filepath.Dir(bin)), payload)
		want := int64(0)
		if f.id == apiFunction.id && bytes.Equal(payload, seatPage) || f.id == helloAPIReadsFunction.id {
			want = 1
		}
		if got := w.ssm.Reads.Load() - reads; got != want {
			t.Errorf("%s read the keyring %d times in its cold start, want %d", f.id, got, want)
		}
		if check != nil {
			if err := check(o.body); err != nil {
				t.Fatalf("%s after a cold start: %v: %.200s", f.id, err, o.body)
			}
		}
		into.answer = append(into.answer, answer)
		into.init = append(into.init, init)
		into.cpu = append(into.cpu, cpu)
	}
	var bare times
	svc := service.New(service.Config{Games: testGames.Engines(), Store: w.store, Players: w.store, Sent: w.store, Keys: w.keys,
		Log: slog.New(slog.DiscardHandler), Rand: w.rand})
	for range coldStarts {
		for i, c := range cases { // alternated, so that both see the same machine
			if c.f.id == sweepFunction.id {
				readPeriod := sweepAfterAPeriod(t, svc)
				start(c.f, bins[i], c.payload, c.check, &fn[i])
				readPeriod()
			} else {
				start(c.f, bins[i], c.payload, c.check, &fn[i])
			}
			start(c.hello, helloBins[i], c.payload, nil, &beside[i])
		}
		start(helloFunction, bareBin, []byte(`{"n":1}`), nil, &bare)
	}

	size := func(bin string) float64 {
		st, err := os.Stat(bin)
		if err != nil {
			t.Fatal(err)
		}
		return float64(st.Size()) / 1e6
	}
	name := func(f function) string { return strings.ToLower(strings.TrimSuffix(f.id, "Function")) }
	t.Logf("%d cold starts each, on %d CPUs: process start to the first answer (an invocation waiting), median [min–max], beside", coldStarts, runtime.NumCPU())
	t.Logf("a hello world with the same SDK clients and event; ratio: median of the paired runs' ratios (ratio of the medians);")
	t.Logf("init: process start to the first GET of /invocation/next, median; cpu: the CPU time the process had run by its")
	t.Logf("answer, median, and the median of the paired runs' ratios (steadier than the wall clock on a busy machine)")
	pairedMedian := func(a, b []time.Duration) float64 {
		ratios := make([]float64, len(a))
		for k := range ratios {
			ratios[k] = float64(a[k]) / float64(b[k])
		}
		slices.Sort(ratios)
		return ratios[len(ratios)/2]
	}
	for i, c := range cases {
		f, h := summary(fn[i].answer), summary(beside[i].answer)
		t.Logf("  %-7s (%4.1f MB): %8v [%v–%v], init %8v, cpu %8v | %-15s (%4.1f MB): %8v [%v–%v], init %8v, cpu %8v | ratio %.2f× (%.2f×), cpu %.2f×",
			name(c.f), size(bins[i]), f.median, f.min, f.max, summary(fn[i].init).median, summary(fn[i].cpu).median,
			name(c.hello), size(helloBins[i]), h.median, h.min, h.max, summary(beside[i].init).median, summary(beside[i].cpu).median,
			pairedMedian(fn[i].answer, beside[i].answer), float64(f.median)/float64(h.median), pairedMedian(fn[i].cpu, beside[i].cpu))
	}
	b := summary(bare.answer)
	t.Logf("  bare hello world, no SDK (%4.1f MB): %v [%v–%v], init %v", size(bareBin), b.median, b.min, b.max, summary(bare.init).median)
}

// pageAnswer checks an HTTP API answer: 200, and a page (answerText)
// that holds mark.
func pageAnswer(what, mark string) func(body []byte) error {
	return func(body []byte) error {
		var r events.APIGatewayV2HTTPResponse
		if err := json.Unmarshal(body, &r); err != nil {
			return err
		}
		page, err := answerText(r)
		if err != nil {
			return err
		}
		if r.StatusCode != http.StatusOK || !strings.Contains(page, mark) {
			return fmt.Errorf("%s: %d %.300s", what, r.StatusCode, page)
		}
		return nil
	}
}

// seatLink makes a started game of two seats and returns its id and
// the first seat's token (ID, Token: seatpage.json's placeholders), the
// link a mail of the game carries.
func (w *world) seatLink() map[string]string {
	t := w.t
	t.Helper()
	svc := w.service(nil)
	c := servicetest.Create(t, svc, w.createRequest("cold"))
	var token string
	for seat := range c.InviteTokens {
		tok, err := svc.Accept(t.Context(), c.ID, seat)
		if err != nil {
			t.Fatalf("accept seat %d: %v", seat, err)
		}
		if seat == 0 {
			token = tok
		}
	}
	return map[string]string{"ID": c.ID, "Token": token}
}

// sweepAfterAPeriod leaves the sweep's mail cursor where a sweep one
// period (service.SweepEvery) before would have left it: the last period
// read is the one before the period the next sweep is to read. Every
// scheduled sweep in AWS comes a period after the one before it, so it
// lists that period's mail and moves its cursor on
// (service.MailPeriods): a Query and a write after the cursor's read.
// The cold starts here come seconds apart and, without this, all but
// the first would find the period read and skip both. The check it
// returns fails the test unless the sweep then read that period.
func sweepAfterAPeriod(t *testing.T, svc *service.Service) (check func()) {
	t.Helper()
	ctx := context.Background()
	c, err := svc.MailPeriods(ctx, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	period := c.To
	c.From = period - 1 // MailRead records no period before From
	if err := svc.MailRead(ctx, c, period-1); err != nil {
		t.Fatal(err)
	}
	return func() {
		t.Helper()
		after, err := svc.MailPeriods(ctx, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if after.From <= period {
			t.Fatalf("the sweep left its mail cursor before period %d: it did not read that period's mail", period)
		}
	}
}

// answerText is an HTTP API answer's body as sent: base64 decoded and,
// for an event that accepts gzip (home.json does, as browsers do),
// gunzipped.
func answerText(r events.APIGatewayV2HTTPResponse) (string, error) {
	body := []byte(r.Body)
	if r.IsBase64Encoded {
		var err error
		if body, err = base64.StdEncoding.DecodeString(r.Body); err != nil {
			return "", fmt.Errorf("isBase64Encoded and the body is not base64: %w", err)
		}
	}
	for k, v := range r.Headers {
		if strings.EqualFold(k, "Content-Encoding") && v == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				return "", fmt.Errorf("Content-Encoding gzip and the body is not gzip: %w", err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				return "", fmt.Errorf("gunzip: %w", err)
			}
		}
	}
	return string(body), nil
}

type stats struct{ min, median, max time.Duration }

func summary(ds []time.Duration) stats {
	s := slices.Clone(ds)
	slices.Sort(s)
	r := func(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }
	return stats{min: r(s[0]), median: r(s[len(s)/2]), max: r(s[len(s)-1])}
}

// TestInitFailure: an api function whose configuration does not read
// (no table named) ends its init with an error naming what is missing,
// before it asks for any invocation, as Lambda then reports an init
// failure.
func TestInitFailure(t *testing.T) {
	w := newWorld(t)
	bin := build(t, apiFunction)
	env := slices.DeleteFunc(w.env(apiFunction, filepath.Dir(bin)), func(kv string) bool { return strings.HasPrefix(kv, "TABLE_NAME=") })
	api, p, out, _ := startBootstrap(t, apiFunction, bin, env)
	defer p.kill(t)
	select {
	case <-p.exited:
	case <-api.ready:
		t.Fatalf("init went on without its table:\n%s", out)
	case <-time.After(20 * time.Second):
		t.Fatalf("init neither failed nor finished in 20 s:\n%s", out)
	}
	var exit *exec.ExitError
	if !errors.As(p.err, &exit) || exit.ExitCode() == 0 {
		t.Errorf("exit: %v, want a failure", p.err)
	}
	if log := out.String(); !strings.Contains(log, "TABLE_NAME") {
		t.Errorf("the init's log does not name the missing variable:\n%s", log)
	}
}

// TestKeyringMissing: an api function whose keyring parameter does not
// exist does not wait for it at init (the read goes on past it): pages
// that need no key are served; a request that needs the keys is answered
// 500, and the log names SSM's answer and the parameter; once the
// parameter exists, the next such request reads it and is served (a
// forged token refused as such, 401), without a new cold start.
func TestKeyringMissing(t *testing.T) {
	w := newWorld(t)
	bin := build(t, apiFunction)
	f := apiFunction
	const param = "/pbm/keys-put-later"
	f.vars = map[string]string{"LINK_KEYS_PARAMETER": param}
	api, p, out, _ := startBootstrap(t, f, bin, w.env(f, filepath.Dir(bin)))
	defer p.kill(t)
	select {
	case <-api.ready:
	case <-p.exited:
		t.Fatalf("init failed without its keyring: %v\n%s", p.err, out)
	case <-time.After(20 * time.Second):
		t.Fatalf("init did not finish in 20 s:\n%s", out)
	}
	status := func(payload []byte) int {
		t.Helper()
		o, err := api.invoke(t.Context(), payload, 10*time.Second)
		if err != nil || o.errorType != "" {
			t.Fatalf("invoke: %v %s %s\n%s", err, o.errorType, o.body, out)
		}
		var r events.APIGatewayV2HTTPResponse
		if err := json.Unmarshal(o.body, &r); err != nil {
			t.Fatalf("answer %s: %v", o.body, err)
		}
		return r.StatusCode
	}
	// A well-formed token for a seat of game g1, signed with a key of
	// the same id that is not the function's.
	other, err := linksign.NewKeyring("k1", map[string][]byte{"k1": bytes.Repeat([]byte{9}, 32)})
	if err != nil {
		t.Fatal(err)
	}
	forged, err := other.Sign(linksign.Claims{Purpose: linksign.PurposeSeat, Game: "g1", Seat: 0, Version: 1, Expires: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	keyed := func() []byte {
		r := httptest.NewRequest(http.MethodGet, "/api/games/g1", nil)
		r.Header.Set("Authorization", "Bearer "+forged)
		return gatewayEvent(t, "GET /api/games/{id}", r, randomUUID())
	}
	if got := status(apiEvent(t, "home.json", nil)); got != http.StatusOK {
		t.Errorf("home page without the keys: %d, want 200", got)
	}
	if got := status(keyed()); got != http.StatusInternalServerError {
		t.Errorf("a token checked without the keys: %d, want 500", got)
	}
	// The process's output reaches out through a pipe: its line may come
	// a moment after the answer.
	named := func(log string) bool {
		return strings.Contains(log, "ParameterNotFound") && strings.Contains(log, param)
	}
	for deadline := time.Now().Add(5 * time.Second); !named(out.String()) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if log := out.String(); !named(log) {
		t.Errorf("the log does not name SSM's error and the parameter:\n%s", log)
	}
	w.ssm.Put(param, `{"current":"k1","keys":{"k1":"`+base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))+`"}}`)
	if got := status(keyed()); got != http.StatusUnauthorized {
		t.Errorf("a forged token once the keys exist: %d, want 401\n%s", got, out)
	}
}
