package httpapi

import (
	"html/template"
	"net/http"

	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/templates"
)

// rulesData is the rules page of one game.
type rulesData struct {
	page
	Kind  string
	Rules template.HTML // the game's own text, from its presenter
}

// rulesPage shows one game's rules in short, in the reader's language:
// a summary of the rule texts and of the choices this service made where
// they are open (the games' DECISIONS.md), and how play by mail works.
// The invitation and the turn card link to it.
func (a *api) rulesPage(w http.ResponseWriter, r *http.Request) {
	kind := r.PathValue("kind")
	if _, ok := a.games.Engines().Lookup(kind); !ok {
		a.notFound(w, r)
		return
	}
	l := lang(r)
	d := rulesData{page: newPage(r, "rules"), Kind: kind, Rules: present.Rules(l, a.games.For(kind))}
	d.Title = templates.Tf(l, "rules_of", a.gameName(l, kind))
	d.LinkRU, d.LinkEN = "/rules/"+kind+"?lang=ru", "/rules/"+kind+"?lang=en"
	a.render(w, r, http.StatusOK, "rules.html", d)
}

// rulesLink is the address of a game's rules page.
func rulesLink(kind, l string) string { return "/rules/" + kind + "?lang=" + l }
