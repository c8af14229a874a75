package businessmanview

import (
	_ "embed"
	"html/template"

	"github.com/pbmgames/pbm/templates"
)

// The rules in short, a page's fragment in each language: the rule
// texts and the choices this service made where they are open.
var (
	//go:embed rules.ru.html
	rulesRU string
	//go:embed rules.en.html
	rulesEN string
)

// Rules are the game's rules in short, for its rules page.
func (businessGame) Rules(l string) template.HTML {
	return template.HTML(templates.Pick(l, rulesRU, rulesEN)) // our own file, not input
}
