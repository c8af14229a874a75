package catalog_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The test-only games (issue 26) live in engine/testgame/<name>/ and
// functions/internal/present/testgame/<name>/. The catalog never lists
// them: the tests that play them wire them in themselves, in one place.
const (
	testEngines    = "engine/testgame"
	testPresenters = "functions/internal/present/testgame"
)

// testWiring are the files outside a test game's two folders that may
// name it: the tests' wiring line (catalog.GamesWith), whose games both
// conformance suites, the engine's and the service's, are run for.
var testWiring = []string{
	"functions/internal/conformance/conformance_test.go",
}

// testGame is a test-only game as its engine's source tells it.
type testGame struct {
	dir, kind, ru, en string
}

// testGamesOf reads the test-only games from their engines' source (this
// package's tests must not import them: they would name them).
func testGamesOf(t *testing.T, top string) []testGame {
	t.Helper()
	dirs, err := os.ReadDir(filepath.Join(top, testEngines))
	if err != nil {
		t.Fatal(err)
	}
	var out []testGame
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		g := testGame{dir: d.Name()}
		if st, err := os.Stat(filepath.Join(top, testPresenters, d.Name())); err != nil || !st.IsDir() {
			t.Errorf("test game %s: no presentation in %s/%s", d.Name(), testPresenters, d.Name())
		}
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, filepath.Join(top, testEngines, d.Name()), func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
		if err != nil {
			t.Fatal(err)
		}
		str := func(e ast.Expr) string {
			if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
				s, _ := strconv.Unquote(b.Value)
				return s
			}
			return ""
		}
		for _, pkg := range pkgs {
			ast.Inspect(pkg, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ValueSpec: // const Name = "<kind>"
					for i, id := range n.Names {
						if id.Name == "Name" && i < len(n.Values) {
							g.kind = str(n.Values[i])
						}
					}
				case *ast.KeyValueExpr: // engine.Info{…, RU: "…", EN: "…"}
					if k, ok := n.Key.(*ast.Ident); ok {
						switch k.Name {
						case "RU":
							g.ru = str(n.Value)
						case "EN":
							g.en = str(n.Value)
						}
					}
				}
				return true
			})
		}
		if g.kind == "" || g.ru == "" || g.en == "" {
			t.Fatalf("test game %s: its kind and names are not found in its source: %+v", d.Name(), g)
		}
		out = append(out, g)
	}
	if len(out) == 0 {
		t.Fatalf("no test game in %s", testEngines)
	}
	return out
}

// TestTestGamesLiveInTheirFolders: a test-only game is named (its kind
// as a string or a path, its Russian name, its English name in
// guillemets, its packages) in its own two folders and the tests' wiring
// lines only: nowhere in the program, its generated files (the API's
// document, the lengths, the prerendered home page) included, and in no
// other test.
func TestTestGamesLiveInTheirFolders(t *testing.T) {
	top := root(t)
	tgs := testGamesOf(t, top)
	type words struct {
		g  testGame
		re *regexp.Regexp
	}
	var all []words
	for _, g := range tgs {
		k := regexp.QuoteMeta(g.kind)
		// Not the bare word: a kind may be an English word (a data race).
		re := regexp.MustCompile(`"` + k + `"|[/=]` + k + `\b|` + regexp.QuoteMeta(g.ru) + `|«` + regexp.QuoteMeta(g.en) + `»`)
		all = append(all, words{g, re})
		t.Logf("%s («%s», %s): %s/%s/ and %s/%s/", g.kind, g.ru, g.en, testEngines, g.dir, testPresenters, g.dir)
	}
	wired := map[string]bool{}
	err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, top+string(filepath.Separator)))
		if d.IsDir() {
			if d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == ".aws-sam" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // a link (node_modules) or a device
		}
		if info, err := d.Info(); err != nil || info.Size() > 4<<20 {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.IndexByte(b, 0) >= 0 {
			return nil // not text
		}
		for _, w := range all {
			if strings.HasPrefix(rel, testEngines+"/"+w.g.dir+"/") || strings.HasPrefix(rel, testPresenters+"/"+w.g.dir+"/") {
				continue
			}
			found := w.re.FindAll(b, 3)
			switch {
			case len(found) > 0 && slices.Contains(testWiring, rel):
				wired[rel] = true
			case len(found) > 0:
				t.Errorf("%s names the test game %s: %q", rel, w.g.kind, found)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range testWiring {
		if !wired[rel] {
			t.Errorf("%s wires no test game any more: drop it from testWiring", rel)
		}
	}
}

// TestOnlyTestsImportTestCode: no file of the program (no _test.go file)
// imports a test-only game or a conformance suite, outside those
// packages themselves.
func TestOnlyTestsImportTestCode(t *testing.T) {
	top := root(t)
	testOnly := func(path string) bool {
		return strings.Contains(path, "/testgame/") || strings.HasSuffix(path, "/engine/conformance") || strings.HasSuffix(path, "/functions/internal/conformance")
	}
	n := 0
	err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, top+string(filepath.Separator)))
		if d.IsDir() {
			if d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "testdata" || testOnly(module+rel) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		n++
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); testOnly(p) {
				t.Errorf("%s imports %s, which is for tests only", rel, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d files of the program read", n)
	}
}
