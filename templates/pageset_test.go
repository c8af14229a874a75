package templates

import (
	"errors"
	"html/template"
	"io"
	"strings"
	"testing"
	"time"
)

// TestPageSetsComplete: every template of the pages renders from its own
// set (Render) with every template it calls in it: html/template checks
// the calls of the whole tree before it executes any, and says "no such
// template" for one that is missing from the set.
func TestPageSetsComplete(t *testing.T) {
	all := Pages().Templates()
	if len(all) == 0 {
		t.Fatal("no page templates")
	}
	for _, tmpl := range all {
		name := tmpl.Name()
		if name == "" || tmpl.Tree == nil {
			continue
		}
		set, err := pageSet(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		// Data nil: execution may stop at its first field, but only
		// after the escaper has looked up every template called.
		var escape *template.Error
		if err := set.ExecuteTemplate(io.Discard, name, nil); errors.As(err, &escape) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestPageSetsSmall: the home page, the api's most frequent first
// request, is parsed from its own file and the layout only.
func TestPageSetsSmall(t *testing.T) {
	pf, err := scanPages()
	if err != nil {
		t.Fatal(err)
	}
	need, _ := pf.needs("home.html")
	if len(need) != 2 {
		t.Errorf("the home page's set is parsed from %v, want itself and the layout", need)
	}
}

// TestPrepare: Prepare parses the page's set on a goroutine of its own,
// and the set Render then uses is the one it parsed.
func TestPrepare(t *testing.T) {
	const name = "seat.html"
	pf, err := scanPages()
	if err != nil {
		t.Fatal(err)
	}
	need, ok := pf.needs(name)
	if !ok {
		t.Fatalf("no page %s", name)
	}
	key := strings.Join(need, " ")
	parsed := func() *template.Template {
		pageSets.Lock()
		defer pageSets.Unlock()
		return pageSets.byFiles[key]
	}
	Prepare(name)
	Prepare(name)
	deadline := time.Now().Add(10 * time.Second)
	for parsed() == nil && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	set := parsed()
	if set == nil {
		t.Fatal("the set of seat.html was not parsed after Prepare")
	}
	again, err := pageSet(name)
	if err != nil || again != set {
		t.Errorf("pageSet after Prepare: %p, %v; want the set Prepare parsed, %p", again, err, set)
	}
}
