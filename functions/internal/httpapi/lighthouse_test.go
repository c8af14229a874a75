package httpapi_test

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/infra/linksign"
)

// TestGameOverRecords writes the records of a finished 6-seat 12-lap game
// of each kind into $PBM_LIGHTHOUSE_RECORDS, for the Lighthouse run of
// the game-over page (scripts/lighthouse.sh, README "Measured figures");
// skipped without it.
func TestGameOverRecords(t *testing.T) {
	dir := os.Getenv("PBM_LIGHTHOUSE_RECORDS")
	if dir == "" {
		t.Skip("PBM_LIGHTHOUSE_RECORDS not set")
	}
	for _, kind := range []string{"western", "businessman"} {
		f := newPageFixture(t)
		c := f.createKind(kind, map[string]any{"laps": 12}, 6, 6)
		f.playUntil(c.ID, func(engine.Game, int) bool { return false })
		code, body := f.page("/g/"+c.ID+"/record", url.Values{"t": {f.token(linksign.PurposeSeat, c.ID, 0)}})
		if code != 200 {
			t.Fatalf("record of %s: %d", kind, code)
		}
		if err := os.WriteFile(filepath.Join(dir, kind+".json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
