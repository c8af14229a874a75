package testenv

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

func TestMain(m *testing.M) { Main(m) }

func TestDynalite(t *testing.T) {
	ep := Dynalite(t)
	if again := Dynalite(t); again != ep {
		t.Fatalf("second call gave %s, first %s: want one server", again, ep)
	}
	if !strings.HasPrefix(ep, "http://127.0.0.1:") && os.Getenv("DYNALITE_ENDPOINT") == "" {
		t.Fatalf("endpoint %s is not on loopback", ep)
	}
	counter := &CountingTransport{}
	client := DynamoClient(t, ep, func(o *dynamodb.Options) { o.HTTPClient = &http.Client{Transport: counter} })
	if _, err := client.ListTables(context.Background(), &dynamodb.ListTablesInput{}); err != nil {
		t.Fatal(err)
	}
	if n := counter.Count(); n != 1 {
		t.Fatalf("ListTables took %d requests, want 1", n)
	}
}

// TestServerGoneSaysWhy: a shared server that died while the tests ran
// is reported as such, with its exit and the end of its stderr, not left
// for the next test to find its port refusing.
func TestServerGoneSaysWhy(t *testing.T) {
	if os.Getenv(dynalite.env) != "" {
		t.Skip("dynalite is given by " + dynalite.env + ": not started here")
	}
	s := &shared{name: dynalite.name, env: "TESTENV_NO_SUCH_VARIABLE", args: dynalite.args, ready: dynalite.ready}
	s.use(t)
	if err := s.gone(); err != nil {
		t.Fatalf("gone while it runs: %v", err)
	}
	s.srv.stop()
	err := s.gone()
	if err == nil || !strings.Contains(err.Error(), "dynalite exited while the tests ran") {
		t.Fatalf("gone after the server was killed: %v", err)
	}
}

func TestSESLocal(t *testing.T) {
	ep := SESLocal(t)
	resp, err := http.Get(ep + "/store")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct {
		Emails []json.RawMessage `json:"emails"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /store: %s, %v", resp.Status, err)
	}
}

func TestMissingServerSaysWhatToRun(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	root, err := RepoRoot()
	if err != nil || root != dir {
		t.Fatalf("RepoRoot = %q, %v; want %q", root, err, dir)
	}
	_, err = binPath("dynalite")
	if err == nil || !strings.Contains(err.Error(), "npm ci") {
		t.Fatalf("binPath without node_modules: %v", err)
	}
}

func TestMissingChromiumSaysWhatToRun(t *testing.T) {
	t.Setenv("CHROMIUM", filepath.Join(t.TempDir(), "no-chromium"))
	_, err := chromiumPath()
	if err == nil || !strings.Contains(err.Error(), "make deps-browser") || !strings.Contains(err.Error(), "$CHROMIUM") {
		t.Fatalf("chromiumPath without a browser: %v", err)
	}
	t.Setenv("CHROMIUM", t.TempDir())
	if _, err := chromiumPath(); err == nil || !strings.Contains(err.Error(), "make deps-browser") {
		t.Fatalf("chromiumPath of a directory: %v", err)
	}
}
