// Command league makes a small league on a running local service (`make
// run`) through its JSON API, as an organiser would: the league, four
// members who join by its invitation, and its first season, starting now.
// It prints the organiser's page and each member's page. A league mails
// no one until its organiser has confirmed their address and seats only
// members who confirmed theirs (issue 25): the local mailbox holds those
// mails; the command waits (-wait) until they are confirmed there, then
// starts the season. The local run's sweep (every 30 s) then makes round
// 1's games. Run it with `make league`.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/pbmgames/pbm/functions/internal/catalog"
)

func main() {
	base := flag.String("url", "http://localhost:8080", "the local service")
	kinds := catalog.Games().Kinds()
	kind := flag.String("kind", kinds[len(kinds)-1], "the league's game, one of "+strings.Join(kinds, ", "))
	wait := flag.Duration("wait", 10*time.Minute, "how long to wait for the confirmations in the mailbox before giving up")
	flag.Parse()
	if err := run(*base, *kind, *wait); err != nil {
		fmt.Fprintln(os.Stderr, "league:", err)
		os.Exit(1)
	}
}

// call posts body as JSON with token (a GET when body is nil) and
// decodes the answer into out.
func call(base, path, token string, body, out any) error {
	method, rd := http.MethodGet, io.Reader(nil)
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		method, rd = http.MethodPost, bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w (is `make run` running?)", path, err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s: %s: %s", path, resp.Status, answer)
	}
	return json.Unmarshal(answer, out)
}

func run(base, kind string, wait time.Duration) error {
	var league struct {
		ID             string `json:"id"`
		OrganiserToken string `json:"organiser_token"`
		InviteToken    string `json:"invite_token"`
		OrganiserURL   string `json:"organiser_url"`
		InviteURL      string `json:"invite_url"`
	}
	err := call(base, "/api/leagues", "", map[string]any{"name": "Клуб по средам", "kind": kind, "options": map[string]int{"laps": 2},
		"organiser":  map[string]string{"name": "Ольга", "email": "olga@league.example", "lang": "ru"},
		"table_size": 4, "deadline_hours": 24, "rounds": 3, "divisions": 1}, &league)
	if err != nil {
		return err
	}
	fmt.Printf("League %s\n  organiser's page: %s\n  invitation:       %s\n", league.ID, league.OrganiserURL, league.InviteURL)
	for i, m := range []struct{ name, lang, mail string }{{"Анна", "ru", "all"}, {"Bob", "en", "turns"}, {"Вера", "ru", "digest"}, {"Dan", "en", "all"}} {
		var joined struct {
			MemberToken string `json:"member_token"`
		}
		// Addresses of this league's own: each gets one confirmation
		// mail a day at most, and the command may run again today.
		err := call(base, "/api/leagues/"+league.ID+"/members", league.InviteToken, map[string]string{"name": m.name,
			"email": fmt.Sprintf("member%d-%s@league.example", i+1, league.ID[:6]), "lang": m.lang, "time_zone": "Europe/Moscow", "mail": m.mail}, &joined)
		if err != nil {
			return err
		}
		fmt.Printf("  %-5s page: %s/l/%s/me?%s\n", m.name, base, league.ID, url.Values{"t": {joined.MemberToken}, "lang": {m.lang}}.Encode())
	}
	fmt.Printf("The league mails no one until its organiser has confirmed their address, and seats only members\n"+
		"who confirmed theirs: open %s/mailbox and press the button of the organiser's confirmation, then of\n"+
		"each member's (they come once the organiser's is done). Waiting up to %s…\n", base, wait)
	if err := confirmed(base, league.ID, league.OrganiserToken, 4, wait); err != nil {
		return err
	}
	var started struct {
		Season int `json:"season"`
	}
	if err := call(base, "/api/leagues/"+league.ID+"/seasons", league.OrganiserToken, map[string]any{}, &started); err != nil {
		return err
	}
	fmt.Printf("Season %d starts now: within 30 s the sweep makes round 1's games; their mails come to %s/mailbox.\n", started.Season, base)
	return nil
}

// confirmed waits until the league's organiser and its members have
// confirmed their addresses (the organiser's view of the league says),
// for at most wait.
func confirmed(base, id, org string, members int, wait time.Duration) error {
	for end := time.Now().Add(wait); ; time.Sleep(2 * time.Second) {
		var view struct {
			Organiser struct {
				Unconfirmed bool `json:"unconfirmed"`
				Members     []struct {
					Pending bool `json:"pending"`
				} `json:"members"`
			} `json:"organiser"`
		}
		if err := call(base, "/api/leagues/"+id, org, nil, &view); err != nil {
			return err
		}
		left := 0
		for _, m := range view.Organiser.Members {
			if m.Pending {
				left++
			}
		}
		if !view.Organiser.Unconfirmed && left == 0 && len(view.Organiser.Members) == members {
			return nil
		}
		if time.Now().After(end) {
			return fmt.Errorf("still waiting after %s: the organiser's address confirmed: %v; members not confirmed: %d "+
				"(start the season from the organiser's page once they are)", wait, !view.Organiser.Unconfirmed, left)
		}
	}
}
