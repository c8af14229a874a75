package present_test

import (
	"encoding/json"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
)

// TestGameFilesRead: every game's files read, and its presenter reads
// its own phrases. They are read on their first use, not at start (issue
// 16: cold starts), so a broken file would otherwise show only on the
// first page or mail that needs it; here it fails at once.
func TestGameFilesRead(t *testing.T) {
	for _, kind := range testGames.Kinds() {
		var texts map[string][2]string
		read(t, kind, "texts.json", &texts)
		// The presenter says each of its own texts (its first look-up
		// reads them all, and panics on a key the shared texts have too).
		for k, want := range texts {
			p := testGames.For(kind)
			if got := [2]string{p.Text("ru", k), p.Text("en", k)}; got != want {
				t.Errorf("%s: text %q says %q, want %q", kind, k, got, want)
			}
		}
		var phrases present.Phrases
		read(t, kind, "phrases.json", &phrases)
		var api any
		read(t, kind, "openapi.json", &api)
		for _, l := range []string{"ru", "en"} {
			if present.Rules(l, testGames.For(kind)) == "" {
				t.Errorf("%s: no rules in %s", kind, l)
			}
		}
		// The presenter's own copy of its phrases, read on first use.
		p := testGames.For(kind)
		for typ, words := range phrases.Actions {
			name := func(int) string { return "A" }
			if got := p.ActionLabel("en", engine.Action{Type: typ}, name); got == typ && words[1] != typ {
				t.Errorf("%s: action %q is not worded (%q)", kind, typ, got)
			}
			break // one is enough to read them
		}
	}
}

// read decodes a game's file into v.
func read(t *testing.T, kind, name string, v any) {
	t.Helper()
	b, ok := present.File(testGames.For(kind), name)
	if !ok {
		t.Fatalf("%s: no %s", kind, name)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %s: %v", kind, name, err)
	}
}
