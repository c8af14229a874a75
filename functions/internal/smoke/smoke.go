// Package smoke plays a short game against a running service over HTTP,
// as people would, and checks what a deploy must not break: the health
// check, a game made, confirmed, accepted and started, «Мои игры» (the
// player's games), unsubscribing, the suppression of an address whose
// mail bounced, and a reminder sent by the sweep.
//
// What only mail carries (the organiser's confirmation, a player's links)
// is minted from the service's link-signing keyring, as the service
// mints it. What the service shows nobody (a player suppressed, a seat
// reminded) is read from the service's own records through Config's
// hooks. `make smoke` runs it against a deployed stack (cmd/smoke: SES's
// mailbox simulator, the keyring from SSM, the table read with the
// operator's credentials); its test runs it against the local runner.
package smoke

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	// The games, registered (present.Kinds).
	"github.com/pbmgames/pbm/functions/internal/catalog"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// Config is what a run needs besides the service's URL.
type Config struct {
	URL string // the service's root, such as https://abc.execute-api.eu-central-1.amazonaws.com/
	// Keys is the service's link-signing keyring.
	Keys *linksign.Keyring
	// Success is an address whose mail is delivered, told apart by label;
	// Bounce one whose mail bounces for good.
	Success func(label string) string
	Bounce  string
	// Bounced, if set, makes the bounce arrive (the local run has no SES
	// to bounce the invitation); nil: SES does it.
	Bounced func(ctx context.Context, addr string) error
	// Suppressed tells whether the service has suppressed addr.
	Suppressed func(ctx context.Context, addr string) (bool, error)
	// Reminded tells whether the seat of game was reminded of its move.
	Reminded func(ctx context.Context, game string, seat int) (bool, error)
	// Sweep, if set, runs the sweep at the time the reminder is due (the
	// local run's clock moved on); nil: the scheduled sweep does it.
	Sweep func(ctx context.Context) error
	// SuppressWait and ReminderWait bound the waits for the bounce to be
	// suppressed and the reminder to be sent (0: the reminder is not
	// checked); Poll is the time between looks.
	SuppressWait, ReminderWait, Poll time.Duration
	Log                              io.Writer
	HTTP                             *http.Client // http.DefaultClient if nil
	// Now is the service's clock, for the tokens' expiry (time.Now if nil).
	Now func() time.Time
}

// DeadlineHours is the smoke game's deadline a decision: the shortest the
// service takes. A seat is reminded a quarter of it before (P-4): 45
// minutes after its decision is asked.
const DeadlineHours = 1

// Run plays the smoke game. It returns the first check that failed.
func Run(ctx context.Context, c Config) error {
	if c.URL == "" {
		return errors.New("no URL: the service to check (make smoke URL=https://…)")
	}
	if c.HTTP == nil {
		c.HTTP = http.DefaultClient
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	if c.Poll == 0 {
		c.Poll = 10 * time.Second
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	r := &run{Config: c, base: strings.TrimSuffix(c.URL, "/")}
	step := func(name string, f func(context.Context) error) error {
		t0 := time.Now()
		if err := f(ctx); err != nil {
			fmt.Fprintf(c.Log, "FAIL %s: %v\n", name, err)
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintf(c.Log, "ok   %s (%v)\n", name, time.Since(t0).Round(time.Millisecond))
		return nil
	}
	for _, s := range []struct {
		name string
		f    func(context.Context) error
	}{
		{"GET /healthz", r.health},
		{"a game made, its organiser confirmed, two seats accepted, started", r.play},
		{"«Мои игры» lists the game", r.myGames},
		{"the unsubscribe link unsubscribes", r.unsubscribe},
		{"the bounced address is suppressed", r.suppressed},
		{"the sweep reminds the seat to move", r.reminded},
	} {
		if err := step(s.name, s.f); err != nil {
			return err
		}
	}
	return nil
}

type run struct {
	Config
	base   string
	game   string
	org    string   // the organiser's token
	seats  []string // the seat tokens of the two who accepted
	emails []string // their addresses
}

// token mints the token of a link the service mails (as Service.Token
// does): for a game, or for a player's address (PurposeMyGames,
// PurposeUnsubscribe).
func (r *run) token(p linksign.Purpose, subject string, ttl time.Duration) (string, error) {
	t, err := r.Keys.Sign(linksign.Claims{Purpose: p, Game: subject, Seat: linksign.NoSeat, Expires: r.Now().Add(ttl)})
	if err != nil {
		return "", fmt.Errorf("sign %s token: %w", p, err)
	}
	return t, nil
}

// call makes a request and decodes a JSON answer into out (if not nil);
// it returns the status and the body.
func (r *run) call(ctx context.Context, method, path, token, contentType string, body io.Reader, out any) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, r.base+path, body)
	if err != nil {
		return 0, nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := r.HTTP.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(data, out); err != nil {
			return resp.StatusCode, data, fmt.Errorf("%s %s: %w: %.200s", method, path, err, data)
		}
	}
	return resp.StatusCode, data, nil
}

func (r *run) postJSON(ctx context.Context, path, token string, in, out any) (int, []byte, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return 0, nil, err
		}
		body = bytes.NewReader(b)
	}
	return r.call(ctx, http.MethodPost, path, token, "application/json", body, out)
}

func want(status, code int, what string, body []byte) error {
	if status != code {
		return fmt.Errorf("%s: %d, want %d: %.300s", what, status, code, body)
	}
	return nil
}

func (r *run) health(ctx context.Context) error {
	st, body, err := r.call(ctx, http.MethodGet, "/healthz", "", "", nil, nil)
	if err != nil {
		return err
	}
	return want(st, http.StatusOK, "GET /healthz", body)
}

func (r *run) play(ctx context.Context) error {
	r.emails = []string{r.Success("smoke-a"), r.Success("smoke-b")}
	req := map[string]any{
		// The service's first game (the create form's first), its default options.
		"kind": catalog.Games().Kinds()[0], "deadline_hours": DeadlineHours,
		"organiser": map[string]string{"name": "Smoke", "email": r.Success("smoke-org"), "lang": "en"},
		"seats": []map[string]string{
			{"name": "Anna", "email": r.emails[0], "lang": "en"},
			{"name": "Boris", "email": r.emails[1], "lang": "ru"},
			// Invited, never accepts: the invitation bounces.
			{"name": "Bounce", "email": r.Bounce, "lang": "en"},
		},
	}
	var created service.Created
	st, body, err := r.postJSON(ctx, "/api/games", "", req, &created)
	if err != nil {
		return err
	}
	if err := want(st, http.StatusCreated, "POST /api/games", body); err != nil {
		return err
	}
	r.game, r.org = created.ID, created.OrganiserToken
	if created.Unconfirmed {
		// The link of the mail to the organiser, minted as the service mints it.
		tok, err := r.token(linksign.PurposeConfirm, r.game, service.ConfirmTokenTTL)
		if err != nil {
			return err
		}
		st, body, err := r.postJSON(ctx, "/api/games/"+r.game+"/confirm", tok, nil, nil)
		if err != nil {
			return err
		}
		if err := want(st, http.StatusOK, "POST /api/games/{id}/confirm", body); err != nil {
			return err
		}
	}
	if len(created.InviteTokens) != 3 {
		return fmt.Errorf("%d invitation tokens, want 3", len(created.InviteTokens))
	}
	for i := range 2 {
		var out struct {
			SeatToken string `json:"seat_token"`
		}
		st, body, err := r.postJSON(ctx, "/api/games/"+r.game+"/accept", created.InviteTokens[i], nil, &out)
		if err != nil {
			return err
		}
		if err := want(st, http.StatusOK, fmt.Sprintf("accept seat %d", i), body); err != nil {
			return err
		}
		r.seats = append(r.seats, out.SeatToken)
	}
	st, body, err = r.postJSON(ctx, "/api/games/"+r.game+"/start", r.org, map[string]any{}, nil)
	if err != nil {
		return err
	}
	if err := want(st, http.StatusOK, "POST /api/games/{id}/start", body); err != nil {
		return err
	}
	var view struct {
		Status string `json:"status"`
		Owing  []int  `json:"owing"`
	}
	st, body, err = r.call(ctx, http.MethodGet, "/api/games/"+r.game, r.seats[0], "", nil, &view)
	if err != nil {
		return err
	}
	if err := want(st, http.StatusOK, "GET /api/games/{id}", body); err != nil {
		return err
	}
	if len(view.Owing) == 0 {
		return fmt.Errorf("the started game (%s) owes no decision", view.Status)
	}
	return nil
}

// myGames opens «Мои игры» with the link a mail to Anna carries.
func (r *run) myGames(ctx context.Context) error {
	tok, err := r.token(linksign.PurposeMyGames, r.emails[0], service.OrganiserTokenTTL)
	if err != nil {
		return err
	}
	st, body, err := r.call(ctx, http.MethodGet, "/me?t="+url.QueryEscape(tok), "", "", nil, nil)
	if err != nil {
		return err
	}
	if err := want(st, http.StatusOK, "GET /me", body); err != nil {
		return err
	}
	if !bytes.Contains(body, []byte("/g/"+r.game)) {
		return fmt.Errorf("GET /me does not link the game %s", r.game)
	}
	return nil
}

// unsubscribe follows Boris's one-click unsubscribe link (the
// List-Unsubscribe-Post of his mail).
func (r *run) unsubscribe(ctx context.Context) error {
	tok, err := r.token(linksign.PurposeUnsubscribe, r.emails[1], service.MailLinkTTL)
	if err != nil {
		return err
	}
	st, body, err := r.call(ctx, http.MethodPost, "/unsubscribe?t="+url.QueryEscape(tok), "",
		"application/x-www-form-urlencoded", strings.NewReader("List-Unsubscribe=One-Click"), nil)
	if err != nil {
		return err
	}
	return want(st, http.StatusOK, "POST /unsubscribe", body)
}

// suppressed waits for the bounce of the invitation to Bounce to be
// recorded: SES → the configuration set's topic → the bounces function.
func (r *run) suppressed(ctx context.Context) error {
	if r.Bounced != nil {
		if err := r.Bounced(ctx, r.Bounce); err != nil {
			return err
		}
	}
	return r.poll(ctx, r.SuppressWait, func() (bool, error) { return r.Suppressed(ctx, r.Bounce) })
}

// reminded waits for the sweep to remind the seat that owes the first
// decision, 45 minutes after the start (a quarter of the hour before its
// deadline).
func (r *run) reminded(ctx context.Context) error {
	if r.ReminderWait == 0 {
		fmt.Fprintln(r.Log, "     (the reminder is not checked: no time given to wait for it)")
		return nil
	}
	var view struct {
		Owing []int `json:"owing"`
	}
	if _, _, err := r.call(ctx, http.MethodGet, "/api/games/"+r.game, r.seats[0], "", nil, &view); err != nil {
		return err
	}
	if len(view.Owing) == 0 {
		return errors.New("nobody owes a decision")
	}
	if r.Sweep != nil {
		if err := r.Sweep(ctx); err != nil {
			return err
		}
	}
	return r.poll(ctx, r.ReminderWait, func() (bool, error) { return r.Reminded(ctx, r.game, view.Owing[0]) })
}

// poll asks ok every Poll until it says yes or wait has passed.
func (r *run) poll(ctx context.Context, wait time.Duration, ok func() (bool, error)) error {
	deadline := time.Now().Add(wait)
	for {
		yes, err := ok()
		if err != nil || yes {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not after %v", wait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(r.Poll):
		}
	}
}
