//go:build linux

package lambdatest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/servicetest"
)

// TestNotifySignIn (issue 17): in AWS the sign-in page only counts the
// request, a player's address and a stranger's alike; the table's stream
// brings the address's counter to the notifier's binary, which mails the
// player their link — a token without the address in it — and sends
// nothing to the stranger.
func TestNotifySignIn(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	now := time.Now().UTC()
	svc := w.service(func() time.Time { return now })
	req := w.createRequest("signin")
	created, err := svc.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, svc, created.ID)
	player, stranger := req.Seats[0].Email, "signin.stranger."+w.tag+"@example.org"

	var records []any
	for i, addr := range []string{player, stranger} {
		if err := svc.AskSignIn(ctx, addr, "192.0.2.7", "en"); err != nil {
			t.Fatal(err)
		}
		item := w.guardItem(fmt.Sprintf("signin/addr/%s/3600/%d", strings.ToLower(addr), now.Unix()/3600))
		if item == nil {
			t.Fatalf("no sign-in counter of %s", addr)
		}
		records = append(records, w.streamRecord("INSERT", item, fmt.Sprintf("44215845%020d", i+1)))
	}
	batch, err := json.Marshal(map[string]any{"Records": records})
	if err != nil {
		t.Fatal(err)
	}
	bin := build(t, notifyFunction)
	fn := startEmulator(t, buildRIE(t), bin, w.env(notifyFunction, filepath.Dir(bin)))
	fn.invoke(batch)

	var link string
	for _, m := range w.mailsTo() {
		for _, to := range m.Destination.To {
			switch {
			case strings.Contains(to, stranger):
				t.Errorf("a sign-in mail to a stranger: %q", m.Subject)
			case strings.Contains(to, player) && strings.Contains(m.Body.Text, "/signin/open?"):
				link = regexp.MustCompile(`\S+/signin/open\?\S+`).FindString(m.Body.Text)
			}
		}
	}
	if link == "" {
		t.Fatal("no sign-in mail to the player")
	}
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(u.Query().Get("t"), ".")
	if len(parts) != 4 {
		t.Fatalf("sign-in link %q", link)
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || strings.Contains(string(payload), "@") {
		t.Fatalf("the sign-in token names the address: %q, %v", payload, err)
	}
}
