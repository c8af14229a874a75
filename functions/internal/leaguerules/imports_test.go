package leaguerules

import (
	"os/exec"
	"strings"
	"testing"
)

// The league core is pure: the standard library and the engine only, no
// AWS, no store, no mail, so the sweep and the pages can share it.
func TestLeagueImportsOnlyEngineAndStandardLibrary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const module = "github.com/pbmgames/pbm/"
	for _, pkg := range strings.Fields(string(out)) {
		if pkg != module+"functions/internal/leaguerules" && pkg != module+"engine" {
			t.Errorf("league depends on %s", pkg)
		}
	}
}
