package templates

import (
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
)

// A page is rendered from a set of only the files it needs: its own, the
// layout, and the files of the templates they call, found by scanning
// the files' {{define}} and {{template}} actions (no regexps). Parsing
// every page file took 2.3 ms of the api's first request (the home page);
// the home page's own set is two of the nineteen files. Each set is
// parsed on its page's first render and kept.

// pageFiles is what the scan of the page files found.
type pageFiles struct {
	definedIn map[string]string   // a template's name → the file defining it
	calls     map[string][]string // a file → the templates it calls
}

// scanPages reads where each page template is defined and what each file
// calls. A file's own name is a template too (ParseFS names it so).
var scanPages = sync.OnceValues(func() (pageFiles, error) {
	names, err := fs.Glob(files, "pages/*.html")
	if err != nil {
		return pageFiles{}, err
	}
	pf := pageFiles{definedIn: map[string]string{}, calls: map[string][]string{}}
	for _, f := range names {
		b, err := fs.ReadFile(files, f)
		if err != nil {
			return pageFiles{}, err
		}
		pf.definedIn[path.Base(f)] = f
		for text := string(b); ; {
			i := strings.Index(text, "{{")
			if i < 0 {
				break
			}
			text = text[i+2:]
			verb, name, ok := action(text)
			switch {
			case !ok:
			case verb == "define":
				pf.definedIn[name] = f
			case verb == "block": // defines and calls
				pf.definedIn[name] = f
				pf.calls[f] = append(pf.calls[f], name)
			default:
				pf.calls[f] = append(pf.calls[f], name)
			}
		}
	}
	return pf, nil
})

// action reads the start of an action, just after its "{{": a define,
// template or block action and the name it gives; false for any other.
func action(text string) (verb, name string, ok bool) {
	text = strings.TrimLeft(strings.TrimPrefix(text, "-"), " \t\r\n")
	for _, verb := range []string{"define", "template", "block"} {
		rest, found := strings.CutPrefix(text, verb)
		if !found || rest == "" || !strings.ContainsRune(" \t\r\n", rune(rest[0])) {
			continue
		}
		rest = strings.TrimLeft(rest, " \t\r\n")
		if !strings.HasPrefix(rest, `"`) {
			return "", "", false
		}
		name, _, closed := strings.Cut(rest[1:], `"`)
		return verb, name, closed
	}
	return "", "", false
}

// needs lists the files the set of the page named name is parsed from:
// the file defining it and, in turn, those defining what they call.
// Sorted as ParseFS sorts a pattern's matches, so that the set is parsed
// in the order of the set of every page.
func (pf pageFiles) needs(name string) ([]string, bool) {
	first, ok := pf.definedIn[name]
	if !ok {
		return nil, false
	}
	need := []string{first}
	for i := 0; i < len(need); i++ {
		for _, called := range pf.calls[need[i]] {
			if f, ok := pf.definedIn[called]; ok && !slices.Contains(need, f) {
				need = append(need, f)
			}
		}
	}
	slices.Sort(need)
	return need, true
}

// pageSets are the sets parsed so far, by the files they are parsed from.
var pageSets struct {
	sync.Mutex
	byFiles map[string]*template.Template
}

// prepared holds the names of the pages Prepare has begun.
var prepared sync.Map

// Prepare readies the page named name for its first render, once a
// process, on a goroutine of its own, and returns at once: a handler that
// reads before it renders (a game's page: the keys, the game) calls it
// first, so that the work runs while it waits for its reads rather than
// after them, on the first render of a process (a Lambda's cold start).
// The work: its set parsed, and its templates escaped, which
// html/template does at a template's first execution, before it looks at
// the data; executed with none, it stops at the first field (as
// TestPageSetsComplete executes every page). Render waits for a parse
// under way, and escaping is html/template's to serialise; an error is
// Render's to report.
func Prepare(name string) {
	if _, begun := prepared.LoadOrStore(name, struct{}{}); begun {
		return
	}
	go func() {
		if set, err := pageSet(name); err == nil {
			_ = set.ExecuteTemplate(io.Discard, name, nil)
		}
	}()
}

// pageSet is the set of templates the page named name is rendered from,
// parsed on its first use; a name no page file defines is an error.
func pageSet(name string) (*template.Template, error) {
	pf, err := scanPages()
	if err != nil {
		return nil, fmt.Errorf("templates: scan the pages: %w", err)
	}
	need, ok := pf.needs(name)
	if !ok {
		return nil, fmt.Errorf("templates: no page %q", name)
	}
	key := strings.Join(need, " ")
	pageSets.Lock()
	defer pageSets.Unlock()
	if set, ok := pageSets.byFiles[key]; ok {
		return set, nil
	}
	set, err := template.New("").Funcs(Funcs).ParseFS(files, need...)
	if err != nil {
		return nil, err
	}
	if pageSets.byFiles == nil {
		pageSets.byFiles = map[string]*template.Template{}
	}
	pageSets.byFiles[key] = set
	return set, nil
}
