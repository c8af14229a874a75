package functions_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/infra/testenv"
)

// seededConfigs are the configurations a test builds a game service
// from, by package and type: each has a Rand field for the seeds and ids
// of the games.
var seededConfigs = map[[2]string]bool{
	{"service", "Config"}:  true,
	{"wiring", "Parts"}:    true,
	{"localrun", "Config"}: true,
}

// TestGamesInTestsAreSeeded: every game service a test builds is given a
// fixed Rand (testenv.Rand, or a seeded generator), so that no test's
// result depends on a seed that is not fixed: TestWholeGameByClicking
// once failed because the game it played ended before its middle. (The
// Lambda binaries' games cannot be seeded from outside; the tests of them
// assert only what holds for every seed.)
func TestGamesInTestsAreSeeded(t *testing.T) {
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", ".local", "testdata", "artifacts", "bin", ".aws-sam":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			var pkg, name string
			switch ty := lit.Type.(type) {
			case *ast.SelectorExpr:
				if x, ok := ty.X.(*ast.Ident); ok {
					pkg, name = x.Name, ty.Sel.Name
				}
			case *ast.Ident: // inside the package itself
				pkg, name = f.Name.Name, ty.Name
			}
			if !seededConfigs[[2]string{pkg, name}] {
				return true
			}
			for _, e := range lit.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Rand" {
						return true
					}
				}
			}
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s:%d: a %s.%s without a Rand: its games get seeds that are not fixed", rel, fset.Position(lit.Pos()).Line, pkg, name)
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 {
		t.Fatalf("found only %d test files under %s", files, root)
	}
}
