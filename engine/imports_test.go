package engine_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The engine is pure: it imports only the standard library and its own
// packages (no AWS, no I/O adapters), so every game replays anywhere.
func TestEngineImportsOnlyStandardLibrary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-test", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const self = "github.com/pbmgames/pbm/engine"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		// Test variants print as "pkg [pkg.test]", "pkg.test", "pkg_test".
		pkg, _, _ := strings.Cut(line, " ")
		pkg = strings.TrimSuffix(strings.TrimSuffix(pkg, ".test"), "_test")
		if pkg != self && !strings.HasPrefix(pkg, self+"/") {
			t.Errorf("engine depends on %s: only the standard library is allowed", pkg)
		}
	}
}
