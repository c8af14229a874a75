package main

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/wiring/localrun"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestListensOnLoopback (issue 10, 16): the local runner listens on the
// loopback interface by default — its mailbox shows every signed link —
// and only a flag or PBM_LISTEN widens it.
func TestListensOnLoopback(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{nil, nil, "127.0.0.1"},
		{[]string{"-listen", "0.0.0.0"}, nil, "0.0.0.0"},
		{nil, map[string]string{"PBM_LISTEN": "::"}, "::"},
	} {
		o, err := parseOptions(tc.args, env(tc.env))
		if err != nil {
			t.Fatal(err)
		}
		if o.listen != tc.want || o.port != "8080" || o.dataDir != ".local" {
			t.Errorf("%v %v: %+v, want listen %s", tc.args, tc.env, o, tc.want)
		}
	}
}

// TestFriendsAtALocalRun (issue 25, symptom 8): everyone at a local run
// comes from 127.0.0.1, so by default the per-client limits do not count
// them (those per organiser address still do); -count-loopback counts
// them as AWS counts every client, and -limits (PBM_LIMITS) sets any
// limit. Past a limit, the refusal's text ends once.
func TestFriendsAtALocalRun(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	create := func(h http.Handler, i int) *httptest.ResponseRecorder {
		body := fmt.Sprintf(`{"kind":"western","organiser":{"email":"friend%d@example.org"},"seats":[{"name":"A","email":"a@example.org"},{"name":"B","email":"b@example.org"}]}`, i)
		r := httptest.NewRequest("POST", "/api/games", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.RemoteAddr = "127.0.0.1:51000"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for _, tc := range []struct {
		args []string
		env  map[string]string
		made int // of 30 games from 127.0.0.1, each by another organiser
	}{
		{nil, nil, 30},
		{[]string{"-count-loopback"}, nil, service.DefaultLimits.ClientPerHour},
		{nil, map[string]string{"PBM_COUNT_LOOPBACK": "1", "PBM_LIMITS": "games-client-hour=25"}, 25},
		{[]string{"-count-loopback", "-limits", "games-client-hour=100, games-client-day=12"}, nil, 12},
	} {
		o, err := parseOptions(tc.args, env(tc.env))
		if err != nil {
			t.Fatal(err)
		}
		app, err := localrun.New(localrun.Config{Dir: t.TempDir(), BaseURL: "http://localhost:8080", Log: slog.New(slog.DiscardHandler),
			Limits: o.limits, Rand: testenv.Rand(t.Name())})
		if err != nil {
			t.Fatal(err)
		}
		h, made := app.Handler(), 0
		for i := range 30 {
			w := create(h, i)
			switch w.Code {
			case http.StatusCreated:
				made++
			case http.StatusTooManyRequests:
				if body := w.Body.String(); !strings.Contains(body, "мин.\"") && !strings.Contains(body, "ч.\"") || strings.Contains(body, "..") {
					t.Errorf("the refusal's text: %s", body)
				}
			default:
				t.Fatalf("%v %v: game %d: %d %s", tc.args, tc.env, i, w.Code, w.Body)
			}
		}
		app.Close()
		if made != tc.made {
			t.Errorf("%v %v: %d of 30 games from 127.0.0.1 made, want %d", tc.args, tc.env, made, tc.made)
		}
	}
	for _, bad := range []string{"games-client-hour", "games-client-hour=0", "games-everyone-hour=5", "tea=1"} {
		if _, err := parseOptions([]string{"-limits", bad}, env(nil)); err == nil {
			t.Errorf("-limits %q taken", bad)
		}
	}
}
