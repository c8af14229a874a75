// Command league makes a small league on a running local service (`make
// run`) through its JSON API, as an organiser would: the league, four
// members who join by its invitation, and its first season, starting now.
// It prints the organiser's page and each member's page; the local run's
// sweep (every 30 s) then makes round 1's games, and the mailbox shows the
// league's mails. Run it with `make league`.
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

	_ "github.com/pbmgames/pbm/functions/internal/catalog" // registers the games
	"github.com/pbmgames/pbm/functions/internal/present"
)

func main() {
	base := flag.String("url", "http://localhost:8080", "the local service")
	kind := flag.String("kind", present.Kinds()[len(present.Kinds())-1], "the league's game, one of "+strings.Join(present.Kinds(), ", "))
	flag.Parse()
	if err := run(*base, *kind); err != nil {
		fmt.Fprintln(os.Stderr, "league:", err)
		os.Exit(1)
	}
}

// call posts body as JSON with token and decodes the answer into out.
func call(base, path, token string, body, out any) error {
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, base+path, bytes.NewReader(raw))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
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

func run(base, kind string) error {
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
		err := call(base, "/api/leagues/"+league.ID+"/members", league.InviteToken, map[string]string{"name": m.name,
			"email": fmt.Sprintf("member%d@league.example", i+1), "lang": m.lang, "time_zone": "Europe/Moscow", "mail": m.mail}, &joined)
		if err != nil {
			return err
		}
		fmt.Printf("  %-5s page: %s/l/%s/me?%s\n", m.name, base, league.ID, url.Values{"t": {joined.MemberToken}, "lang": {m.lang}}.Encode())
	}
	var started struct {
		Season int `json:"season"`
	}
	if err := call(base, "/api/leagues/"+league.ID+"/seasons", league.OrganiserToken, map[string]any{}, &started); err != nil {
		return err
	}
	fmt.Printf("Season %d starts now: within 30 s the sweep makes round 1's games. Its first game waits for the\n"+
		"organiser to confirm their address: open the confirmation mail in %s/mailbox.\n", started.Season, base)
	return nil
}
