package httpapi_test

import (
	"net/http"
	"strings"

	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
)

// contractLeagues runs leagues on the contract's store when it keeps
// them (nil otherwise: their routes answer 404).
func contractLeagues(st store.Store, svc *service.Service) *leagues.Service {
	ls, ok := st.(store.LeagueStore)
	if !ok {
		return nil
	}
	return leagues.New(leagues.Config{Store: ls, Games: svc, Rand: strings.NewReader(strings.Repeat("league-contract-", 64))})
}

// leagueBody is a body the document accepts for a league operation.
func leagueBody(path string) any {
	switch {
	case strings.HasSuffix(path, "/members"):
		return map[string]any{"name": "Zoe", "email": "zoe@example.com"}
	case strings.HasSuffix(path, "/seasons"):
		return map[string]any{}
	case strings.HasSuffix(path, "/substitutes"):
		return map[string]any{"member": "Anna", "from_round": 2, "person": person("Sub", "sub@example.com")}
	}
	return nil
}

// league plays every league operation to a success, and the refusals
// of the wrong league token.
func (c *contract) league() {
	var made struct {
		ID             string `json:"id"`
		OrganiserToken string `json:"organiser_token"`
		InviteToken    string `json:"invite_token"`
	}
	c.want(call{method: "POST", path: "/api/leagues", body: map[string]any{"name": "Club", "kind": "western", "organiser": person("Olga", "olga@example.com"),
		"table_size": 2, "rounds": 2, "divisions": 1}}, http.StatusCreated, "", &made)
	c.want(call{method: "POST", path: "/api/leagues", body: map[string]any{"name": "Club", "kind": "chess", "organiser": person("Olga", "olga@example.com"),
		"table_size": 2, "rounds": 2, "divisions": 1}}, http.StatusBadRequest, service.CodeInvalid, nil)
	base := "/api/leagues/" + made.ID
	var members []string
	for _, name := range []string{"Anna", "Boris", "Clara", "Denis"} {
		var m struct {
			MemberToken string `json:"member_token"`
		}
		c.want(call{method: "POST", path: base + "/members", token: made.InviteToken, body: map[string]any{"name": name, "email": strings.ToLower(name) + "@example.com", "mail": "digest"}},
			http.StatusCreated, "", &m)
		members = append(members, m.MemberToken)
	}
	c.want(call{method: "POST", path: base + "/members", token: members[0], body: leagueBody("/members")}, http.StatusForbidden, service.CodeForbidden, nil)
	// Each member confirms their address from the mail's link (the
	// organiser's was confirmed by a game); asking again after is 409.
	for i := range members {
		tok, err := c.svc.Token(linksign.PurposeLeagueConfirm, made.ID, i, 0, service.ConfirmTokenTTL)
		if err != nil {
			c.t.Fatal(err)
		}
		c.want(call{method: "POST", path: base + "/confirm", token: tok}, http.StatusOK, "", nil)
	}
	c.want(call{method: "POST", path: base + "/confirm", token: members[0]}, http.StatusConflict, service.CodeWrongStatus, nil)
	c.want(call{method: "POST", path: base + "/confirm", token: made.InviteToken}, http.StatusForbidden, service.CodeForbidden, nil)
	c.want(call{method: "GET", path: base, token: members[0]}, http.StatusOK, "", nil)
	c.want(call{method: "GET", path: base, token: made.OrganiserToken}, http.StatusOK, "", nil)
	c.want(call{method: "GET", path: base, token: made.InviteToken}, http.StatusForbidden, service.CodeForbidden, nil)
	c.want(call{method: "POST", path: base + "/seasons", token: made.OrganiserToken, body: map[string]any{"start": "2099-01-01"}}, http.StatusCreated, "", nil)
	c.want(call{method: "POST", path: base + "/seasons", token: made.OrganiserToken, body: map[string]any{}}, http.StatusConflict, "", nil)
	c.want(call{method: "POST", path: base + "/substitutes", token: made.OrganiserToken, body: leagueBody("/substitutes")}, http.StatusOK, "", nil)
	c.want(call{method: "POST", path: base + "/leave", token: members[3]}, http.StatusOK, "", nil)
	c.want(call{method: "POST", path: base + "/leave", token: made.OrganiserToken}, http.StatusForbidden, service.CodeForbidden, nil)
}
