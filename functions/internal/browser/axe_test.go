package browser

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/pbmgames/pbm/infra/testenv"
)

// axeTags are the rule sets axe-core checks the pages against.
// axe-core's best practices too (issue 27): landmarks, unique names.
var axeTags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"}

// axeViolation is one rule a page breaks, as axe-core reports it.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any  `json:"target"`
		HTML   string `json:"html"`
	} `json:"nodes"`
}

// axeReport is what axe-core found on one page.
type axeReport struct {
	Kind, Path string
	Rules      int // how many rules axe-core ran
	Violations []axeViolation
}

var (
	axeOnce   sync.Once
	axeSource string
	axeErr    error
)

// axeScript is axe-core's axe.min.js from node_modules, pinned in
// package-lock.json.
func axeScript(t *testing.T) string {
	t.Helper()
	axeOnce.Do(func() {
		root, err := testenv.RepoRoot()
		if err != nil {
			axeErr = err
			return
		}
		path := filepath.Join(root, "node_modules", "axe-core", "axe.min.js")
		b, err := os.ReadFile(path)
		if err != nil {
			axeErr = fmt.Errorf("%w: run `npm ci` (or `make test`), which installs axe-core pinned in package-lock.json", err)
			return
		}
		axeSource = string(b)
	})
	if axeErr != nil {
		t.Fatalf("axe-core: %v", axeErr)
	}
	return axeSource
}

// axe runs axe-core on the page the tab shows. The script is evaluated
// through DevTools, which the page's Content-Security-Policy does not
// govern; it loads nothing.
func (b *browser) axe(kind string) axeReport {
	b.t.Helper()
	if !eval[bool](b, `typeof axe === "object"`) {
		eval[chromedp.Void](b, axeScript(b.t))
	}
	tags := `["` + strings.Join(axeTags, `","`) + `"]`
	res := eval[struct {
		Rules      int            `json:"rules"`
		Violations []axeViolation `json:"violations"`
	}](b, `axe.run(document, {runOnly: {type: "tag", values: `+tags+`}, resultTypes: ["violations"]}).then(r => ({
		rules: r.violations.length + r.passes.length + r.incomplete.length + r.inapplicable.length,
		violations: r.violations.map(v => ({id: v.id, impact: v.impact || "", help: v.help,
			nodes: v.nodes.map(n => ({target: n.target, html: n.html.slice(0, 160)}))}))}))`, chromedp.EvalAwaitPromise)
	return axeReport{Kind: kind, Path: b.location(), Rules: res.Rules, Violations: res.Violations}
}

// grave are the violations of impact moderate, serious or critical:
// every one fails the tests (issue 27); only "minor" ones are reported.
func (r axeReport) grave() []axeViolation {
	var out []axeViolation
	for _, v := range r.Violations {
		if v.Impact == "moderate" || v.Impact == "serious" || v.Impact == "critical" {
			out = append(out, v)
		}
	}
	return out
}

func (v axeViolation) String() string {
	var targets []string
	for _, n := range v.Nodes {
		targets = append(targets, fmt.Sprint(n.Target...))
	}
	const most = 5
	more := ""
	if len(targets) > most {
		more = fmt.Sprintf(" and %d more", len(targets)-most)
		targets = targets[:most]
	}
	return fmt.Sprintf("%s (%s): %s — %s%s", v.ID, v.Impact, v.Help, strings.Join(targets, ", "), more)
}
