package catalog_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/functions/internal/present"
)

// module is the module's import path; a package's folder is its import
// path without it.
const module = "github.com/pbmgames/pbm/"

// registration names the files of this package that register the games:
// the one place outside a game's two folders that names them.
var registration = []string{"functions/internal/catalog/catalog.go"}

// known are files that still name games and are to lose their names:
// none now; a file that must name a game for a while is listed here with
// its reason.
var known = []string{}

// generated are files written from the registry, not by hand: the
// lengths the calendar simulator measured for each game (and the same
// as Go), the API's document assembled from each game's fragment, and
// the home page rendered ahead of time, which lists the games (go
// generate).
var generated = []string{"functions/internal/lengths/lengths.json", "functions/internal/lengths/lengths_gen.go", "functions/internal/httpapi/openapi.json",
	"functions/internal/httpapi/prerendered/home.ru.html", "functions/internal/httpapi/prerendered/home.en.html", "functions/internal/httpapi/prerendered/kinds.txt"}

// sources are the kinds of file that make the program: Go and the
// fragments embedded in it.
var sources = []string{".go", ".html", ".tmpl", ".json", ".css", ".js", ".txt"}

// folders are a game's two folders: its engine (rules) and its
// presentation, found from what the registry makes.
type folders struct{ engine, present string }

func gameFolders(t *testing.T, info games.Info) folders {
	t.Helper()
	g, err := testGames.Engines().New(info.Kind, testGames.Engines().CurrentRules(info.Kind), nil, info.MinSeats, [32]byte{})
	if err != nil {
		t.Fatalf("%s: %v", info.Kind, err)
	}
	return folders{
		// The game's own view type (its Game is the engine's generic
		// adapter, whose package is engine's).
		engine:  strings.TrimPrefix(reflect.TypeOf(g.View(0)).PkgPath(), module),
		present: strings.TrimPrefix(reflect.TypeOf(present.Underlying(testGames.For(info.Kind))).PkgPath(), module),
	}
}

// names are the words that name a game: its kind, its names and its
// packages' import paths. lower are matched in any case.
func names(info games.Info, f folders) (exact, lower []string) {
	lower = []string{strings.ToLower(info.Kind)}
	if en := strings.ToLower(info.EN); en != lower[0] {
		lower = append(lower, en)
	}
	return []string{info.RU}, append(lower, module+f.engine, module+f.present)
}

// root is the module's folder, the first above the test with go.mod.
func root(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = up
	}
}

// TestGamesLiveInTheirFolders lists each registered game's two folders
// and fails if any other source file names a game: a new game is its two
// folders and one registration, and nothing shared knows it.
func TestGamesLiveInTheirFolders(t *testing.T) {
	list := testGames.Engines().List()
	if len(list) == 0 {
		t.Fatal("no game registered")
	}
	type game struct {
		info         games.Info
		f            folders
		exact, lower []string
	}
	var all []game
	for _, info := range list {
		f := gameFolders(t, info)
		if f.present == "functions/internal/present" {
			t.Errorf("%s: presented by the shared package %s, not a folder of its own", info.Kind, f.present)
		}
		t.Logf("%s («%s», %s): %s/ and %s/", info.Kind, info.RU, info.EN, f.engine, f.present)
		exact, lower := names(info, f)
		all = append(all, game{info, f, exact, lower})
	}
	top := root(t)
	stillKnown := map[string]bool{}
	err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, top+string(filepath.Separator)))
		if d.IsDir() {
			if d.Name() == "node_modules" || d.Name() == "testdata" || d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !slices.Contains(sources, filepath.Ext(rel)) || strings.HasSuffix(rel, "_test.go") ||
			slices.Contains(registration, rel) || slices.Contains(generated, rel) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		low := bytes.ToLower(b)
		isKnown := slices.Contains(known, rel)
		for _, g := range all {
			if strings.HasPrefix(rel, g.f.engine+"/") || strings.HasPrefix(rel, g.f.present+"/") {
				continue
			}
			var found []string
			for _, w := range g.exact {
				if bytes.Contains(b, []byte(w)) {
					found = append(found, w)
				}
			}
			for _, w := range g.lower {
				if bytes.Contains(low, []byte(w)) {
					found = append(found, w)
				}
			}
			switch {
			case len(found) > 0 && isKnown:
				stillKnown[rel] = true
			case len(found) > 0:
				t.Errorf("%s names %s: %q", rel, g.info.Kind, found)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range known {
		if !stillKnown[rel] {
			t.Errorf("%s names no game any more: drop it from the known exceptions", rel)
		}
	}
}
