package testenv

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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

// TestDynaliteOutlivesAbortedRequests: clients that give up on their
// requests at every point of their way (through a proxy, as the IAM
// check's are) leave dynalite serving; dynalite alone exits at the first
// such abort (dynalite.cjs).
func TestDynaliteOutlivesAbortedRequests(t *testing.T) {
	if os.Getenv(dynalite.env) != "" {
		t.Skip("dynalite is given by " + dynalite.env + ": not started here")
	}
	s := &shared{name: dynalite.name, script: dynalite.script, env: "TESTENV_NO_SUCH_VARIABLE", args: dynalite.args, ready: dynalite.ready}
	target, err := url.Parse(s.use(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ErrorLog = log.New(io.Discard, "", 0) // each abort is "context canceled"
	front := httptest.NewServer(proxy)
	defer front.Close()
	db := DynamoClient(t, front.URL)
	if _, err := db.CreateTable(t.Context(), &dynamodb.CreateTableInput{TableName: aws.String("aborts"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest}); err != nil {
		t.Fatal(err)
	}
	read := &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"aborts": {
		Keys: []map[string]types.AttributeValue{{"pk": &types.AttributeValueMemberS{Value: "a"}}}, ConsistentRead: aws.Bool(true)}}}
	for i := range 400 {
		ctx, cancel := context.WithTimeout(t.Context(), time.Duration(i%60)*40*time.Microsecond)
		_, _ = db.BatchGetItem(ctx, read)
		cancel()
		if err := s.gone(); err != nil {
			t.Fatalf("after %d requests given up on: %v", i+1, err)
		}
	}
	if _, err := db.BatchGetItem(t.Context(), read); err != nil {
		t.Fatalf("a request after the aborted ones: %v (%v)", err, s.gone())
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
