// Package functions_test checks template.yaml against the code: every
// function it names builds for Lambda (linux/arm64) within the size limit
// from its Makefile target, every route it declares is served by
// httpapi and every route httpapi serves is declared, the table has what
// the store and the notifier rely on, and no policy grants more than the
// store needs.
//
// The logical id of a function maps to its package through the Makefile:
// SAM runs `make build-<LogicalId>` (BuildMethod: makefile), and that
// target's `go build` names the package (./functions/<name>). The test reads
// the package from there and builds it with the same flags.
package functions_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/goformation/v7/intrinsics"

	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/lambdahttp"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store/boltstore"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
)

// maxBinary is the largest a function's binary may be (SPEC §6).
const maxBinary = 15_000_000

// The Makefile's Lambda build settings, which the test's builds mirror.
const (
	lambdaEnv   = "CGO_ENABLED=0 GOOS=linux GOARCH=arm64"
	lambdaFlags = `-tags lambda.norpc -trimpath -ldflags "-s -w"`
)

var lambdaArgs = []string{"-tags", "lambda.norpc", "-trimpath", "-ldflags", "-s -w"}

const repoRoot = ".." // go test runs in functions/

// samTemplate is the part of template.yaml the checks read. goformation's
// typed model rejects properties newer than it (LoggingConfig, for one), so
// the template goes through goformation's intrinsics processor, which reads
// the YAML with CloudFormation's short-form tags (!Ref, !Sub, !GetAtt...)
// into JSON, and is decoded leniently into these structs. Intrinsic
// functions are kept as written ({"Ref": "Table"}), so a policy's resource
// can be checked to name the table.
type samTemplate struct {
	Transform any
	Globals   struct {
		Function samFunction
	}
	Resources map[string]resource
}

type resource struct {
	Type                string
	Metadata            map[string]any
	Properties          json.RawMessage
	DeletionPolicy      string
	UpdateReplacePolicy string
}

type samFunction struct {
	Runtime       string
	Architectures []string
	Handler       string
	CodeUri       any
	MemorySize    int
	Timeout       int
	Tracing       string
	LoggingConfig map[string]any
	Environment   struct{ Variables map[string]any }
	Policies      json.RawMessage
	Events        map[string]struct {
		Type       string
		Properties json.RawMessage
	}
}

type httpAPIEvent struct {
	ApiId                any
	Method               string
	Path                 string
	PayloadFormatVersion string
}

type dynamoTable struct {
	BillingMode            string
	AttributeDefinitions   []struct{ AttributeName, AttributeType string }
	KeySchema              []keyElem
	GlobalSecondaryIndexes []struct {
		IndexName  string
		KeySchema  []keyElem
		Projection struct{ ProjectionType string }
	}
	StreamSpecification              *struct{ StreamViewType string }
	PointInTimeRecoverySpecification *struct{ PointInTimeRecoveryEnabled bool }
	TimeToLiveSpecification          *struct {
		AttributeName string
		Enabled       bool
	}
	SSESpecification          *struct{ SSEEnabled bool }
	DeletionProtectionEnabled bool
}

type keyElem struct{ AttributeName, KeyType string }

func loadTemplate(t *testing.T) samTemplate {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	js, err := intrinsics.ProcessYAML(data, &intrinsics.ProcessorOptions{NoProcess: true})
	if err != nil {
		t.Fatalf("template.yaml: %v", err)
	}
	var tpl samTemplate
	if err := json.Unmarshal(js, &tpl); err != nil {
		t.Fatalf("template.yaml: %v", err)
	}
	if tpl.Transform != "AWS::Serverless-2016-10-31" {
		t.Errorf("Transform = %v, want AWS::Serverless-2016-10-31", tpl.Transform)
	}
	return tpl
}

// functions returns the template's AWS::Serverless::Function resources.
func (tpl samTemplate) functions(t *testing.T) map[string]samFunction {
	t.Helper()
	out := map[string]samFunction{}
	for id, r := range tpl.Resources {
		if r.Type != "AWS::Serverless::Function" {
			continue
		}
		var f samFunction
		if err := json.Unmarshal(r.Properties, &f); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		out[id] = f
	}
	if len(out) == 0 {
		t.Fatal("template.yaml has no AWS::Serverless::Function")
	}
	return out
}

// makeTarget returns the recipe lines of a Makefile target.
func makeTarget(makefile, target string) ([]string, bool) {
	var recipe []string
	found := false
	sc := bufio.NewScanner(strings.NewReader(makefile))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, target+":"):
			found = true
		case found && strings.HasPrefix(line, "\t"):
			recipe = append(recipe, strings.TrimSpace(line))
		case found && strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "#"):
			return recipe, true
		}
	}
	return recipe, found
}

var goBuildPkg = regexp.MustCompile(`\$\(LAMBDA_ENV\) \$\(GO\) build \$\(LAMBDA_FLAGS\) -o \$\(ARTIFACTS_DIR\)/bootstrap (\./functions/[A-Za-z0-9_/-]+)$`)

// TestFunctionsBuild: each function has its build-<LogicalId> target, is
// set up for provided.al2023 on arm64, and its package builds for Lambda
// into a binary of at most maxBinary bytes.
func TestFunctionsBuild(t *testing.T) {
	tpl := loadTemplate(t)
	mk, err := os.ReadFile(filepath.Join(repoRoot, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	makefile := string(mk)
	for name, want := range map[string]string{"LAMBDA_ENV": lambdaEnv, "LAMBDA_FLAGS": lambdaFlags} {
		re := regexp.MustCompile(`(?m)^` + name + `\s*:=\s*(.*?)\s*$`)
		if m := re.FindStringSubmatch(makefile); m == nil || m[1] != want {
			t.Errorf("Makefile: %s is %q, want %q (the flags this test builds with)", name, m, want)
		}
	}

	g := tpl.Globals.Function
	for id, f := range tpl.functions(t) {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			if got := tpl.Resources[id].Metadata["BuildMethod"]; got != "makefile" {
				t.Errorf("Metadata.BuildMethod = %v, want makefile", got)
			}
			if f.CodeUri != "." {
				t.Errorf("CodeUri = %v, want . (the Makefile is at the root)", f.CodeUri)
			}
			if rt := or(f.Runtime, g.Runtime); rt != "provided.al2023" {
				t.Errorf("Runtime = %q, want provided.al2023", rt)
			}
			a := f.Architectures
			if a == nil {
				a = g.Architectures
			}
			if !slices.Equal(a, []string{"arm64"}) {
				t.Errorf("Architectures = %v, want [arm64]", a)
			}
			if h := or(f.Handler, g.Handler); h != "bootstrap" {
				t.Errorf("Handler = %q, want bootstrap", h)
			}

			recipe, ok := makeTarget(makefile, "build-"+id)
			if !ok {
				t.Fatalf("Makefile has no target build-%s (sam build runs it)", id)
			}
			var pkg string
			for _, line := range recipe {
				if m := goBuildPkg.FindStringSubmatch(line); m != nil {
					pkg = m[1]
				}
			}
			if pkg == "" {
				t.Fatalf("build-%s does not run `$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/<name>`: %q", id, recipe)
			}
			if testing.Short() {
				t.Skipf("-short: not building %s", pkg)
			}
			out := filepath.Join(t.TempDir(), "bootstrap")
			cmd := exec.Command("go", append(append([]string{"build"}, lambdaArgs...), "-o", out, pkg)...)
			cmd.Dir = repoRoot
			cmd.Env = append(os.Environ(), strings.Fields(lambdaEnv)...)
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("build %s for linux/arm64: %v\n%s", pkg, err, msg)
			}
			st, err := os.Stat(out)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s (%s): %d bytes", id, pkg, st.Size())
			if st.Size() > maxBinary {
				t.Errorf("%s's binary is %d bytes, over the %d limit", pkg, st.Size(), maxBinary)
			}
		})
	}
}

// or is v, or dflt (the Globals' value) if v is unset.
func or[T comparable](v, dflt T) T {
	var zero T
	if v == zero {
		return dflt
	}
	return v
}

// templateRoutes lists "METHOD /path" of every HttpApi event, by function.
func templateRoutes(t *testing.T, tpl samTemplate) map[string]string {
	t.Helper()
	routes := map[string]string{} // route → function id
	for id, f := range tpl.functions(t) {
		for name, ev := range f.Events {
			if ev.Type != "HttpApi" {
				continue
			}
			var p httpAPIEvent
			if err := json.Unmarshal(ev.Properties, &p); err != nil {
				t.Fatalf("%s.%s: %v", id, name, err)
			}
			if ref, _ := p.ApiId.(map[string]any); ref["Ref"] == nil || tpl.Resources[fmt.Sprint(ref["Ref"])].Type != "AWS::Serverless::HttpApi" {
				t.Errorf("%s.%s: ApiId %v is not a Ref to the template's AWS::Serverless::HttpApi", id, name, p.ApiId)
			}
			if v := p.PayloadFormatVersion; v != "" && v != "2.0" {
				t.Errorf("%s.%s: PayloadFormatVersion %q; lambdahttp serves 2.0", id, name, v)
			}
			route := strings.ToUpper(p.Method) + " " + p.Path
			if prev, dup := routes[route]; dup {
				t.Errorf("route %s declared twice (%s and %s.%s)", route, prev, id, name)
			}
			routes[route] = id + "." + name
		}
	}
	return routes
}

// TestRoutesMatch: the routes declared in template.yaml are exactly those
// httpapi serves (API Gateway's {name} path parameters are Go's pattern
// wildcards; the root route is "/" in both).
func TestRoutesMatch(t *testing.T) {
	declared := templateRoutes(t, loadTemplate(t))
	served := map[string]bool{}
	for _, r := range httpapi.Routes() {
		route := r.Method + " " + r.Pattern
		served[route] = true
		if _, ok := declared[route]; !ok {
			t.Errorf("httpapi serves %s but template.yaml declares no HttpApi event for it", route)
		}
	}
	for _, route := range slices.Sorted(maps.Keys(declared)) {
		if !served[route] {
			t.Errorf("template.yaml declares %s (%s) but httpapi does not serve it", route, declared[route])
		}
	}
}

// TestRoutesServed sends each declared route, as an API Gateway HTTP API
// payload 2.0 event through lambdahttp, to the real handler (on the
// embedded store): none may fall through to the mux's 404 or 405.
func TestRoutesServed(t *testing.T) {
	declared := templateRoutes(t, loadTemplate(t))
	dir := t.TempDir()
	st, err := boltstore.Open(filepath.Join(dir, "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	keys, err := linksign.EnsureKeyFile(filepath.Join(dir, "keys.json"))
	if err != nil {
		t.Fatal(err)
	}
	h := httpapi.New(httpapi.Deps{
		Service: service.New(service.Config{Store: st, Keys: keys}),
		Log:     slog.New(slog.DiscardHandler),
	})
	for _, route := range slices.Sorted(maps.Keys(declared)) {
		method, p, _ := strings.Cut(route, " ")
		rawPath := strings.ReplaceAll(p, "{id}", "NOSUCHGAME")
		ev := events.APIGatewayV2HTTPRequest{Version: "2.0", RouteKey: route, RawPath: rawPath,
			Headers: map[string]string{"host": "api.example", "content-type": "application/json"}}
		ev.RequestContext.HTTP.Method = method
		ev.RequestContext.HTTP.Path = rawPath
		ev.RequestContext.DomainName = "api.example"
		if method == http.MethodPost {
			ev.Body = "{}"
		}
		resp, err := lambdahttp.Serve(context.Background(), h, ev)
		if err != nil {
			t.Errorf("%s: %v", route, err)
			continue
		}
		if resp.StatusCode == http.StatusMethodNotAllowed ||
			resp.StatusCode == http.StatusNotFound && strings.HasPrefix(resp.Headers["Content-Type"], "text/plain") {
			t.Errorf("%s (as %s %s): %d %q, the mux's answer: no handler", route, method, rawPath, resp.StatusCode, resp.Body)
		}
	}
}

// TestTable: the table has the keys and index the store uses, the stream
// the notifier reads, point-in-time recovery, TTL, encryption, and is kept
// when the stack goes.
func TestTable(t *testing.T) {
	tpl := loadTemplate(t)
	var found []string
	for id, r := range tpl.Resources {
		if r.Type != "AWS::DynamoDB::Table" {
			continue
		}
		found = append(found, id)
		var tb dynamoTable
		if err := json.Unmarshal(r.Properties, &tb); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if r.DeletionPolicy != "Retain" || r.UpdateReplacePolicy != "Retain" || !tb.DeletionProtectionEnabled {
			t.Errorf("%s: want DeletionPolicy and UpdateReplacePolicy Retain and DeletionProtectionEnabled", id)
		}
		if tb.BillingMode != "PAY_PER_REQUEST" {
			t.Errorf("%s: BillingMode %q, want PAY_PER_REQUEST", id, tb.BillingMode)
		}
		want := []keyElem{{dynamostore.AttrPK, "HASH"}, {dynamostore.AttrSK, "RANGE"}}
		if !slices.Equal(tb.KeySchema, want) {
			t.Errorf("%s: KeySchema %v, want %v", id, tb.KeySchema, want)
		}
		types := map[string]string{}
		for _, a := range tb.AttributeDefinitions {
			types[a.AttributeName] = a.AttributeType
		}
		for _, a := range []string{dynamostore.AttrPK, dynamostore.AttrSK, dynamostore.AttrOutbox} {
			if types[a] != "S" {
				t.Errorf("%s: attribute %s is %q, want S", id, a, types[a])
			}
		}
		gsi := false
		for _, ix := range tb.GlobalSecondaryIndexes {
			if ix.IndexName == dynamostore.OutboxIndex {
				gsi = slices.Equal(ix.KeySchema, []keyElem{{dynamostore.AttrOutbox, "HASH"}}) && ix.Projection.ProjectionType == "KEYS_ONLY"
			}
		}
		if !gsi {
			t.Errorf("%s: no GSI %q keyed on %s (HASH) projecting KEYS_ONLY", id, dynamostore.OutboxIndex, dynamostore.AttrOutbox)
		}
		if tb.StreamSpecification == nil || tb.StreamSpecification.StreamViewType != "NEW_IMAGE" {
			t.Errorf("%s: no stream of NEW_IMAGE (the notifier reads it)", id)
		}
		if tb.PointInTimeRecoverySpecification == nil || !tb.PointInTimeRecoverySpecification.PointInTimeRecoveryEnabled {
			t.Errorf("%s: point-in-time recovery is off", id)
		}
		if tb.TimeToLiveSpecification == nil || !tb.TimeToLiveSpecification.Enabled || tb.TimeToLiveSpecification.AttributeName != "ttl" {
			t.Errorf("%s: TTL is not on attribute ttl", id)
		}
		if tb.SSESpecification == nil || !tb.SSESpecification.SSEEnabled {
			t.Errorf("%s: SSE is off", id)
		}
	}
	if len(found) != 1 {
		t.Errorf("want one AWS::DynamoDB::Table, have %v", found)
	}
}

// forbidden are DynamoDB actions no function needs: the store reads by key
// and by query, and writes whole items; old items expire by TTL.
var forbidden = []string{"dynamodb:Scan", "dynamodb:DeleteItem", "dynamodb:DeleteTable", "dynamodb:UpdateTable", "dynamodb:PartiQLSelect"}

// broadPolicies are SAM policy templates and managed policies that grant
// some of them.
var broadPolicies = []string{"DynamoDBCrudPolicy", "DynamoDBReadPolicy", "DynamoDBWritePolicy", "AmazonDynamoDBFullAccess", "AmazonDynamoDBReadOnlyAccess", "AdministratorAccess", "PowerUserAccess"}

// TestPolicies: no function may Scan or delete, directly or through a
// wildcard (dynamodb:*, dynamodb:S*, *), a broad SAM policy template or a
// managed policy; DynamoDB grants name a resource, never "*"; no NotAction.
func TestPolicies(t *testing.T) {
	tpl := loadTemplate(t)
	for id, f := range tpl.functions(t) {
		if len(f.Policies) == 0 {
			continue
		}
		var policies []any
		if err := json.Unmarshal(f.Policies, &policies); err != nil {
			var one any
			if err := json.Unmarshal(f.Policies, &one); err != nil {
				t.Fatalf("%s: Policies: %v", id, err)
			}
			policies = []any{one}
		}
		for _, p := range policies {
			switch p := p.(type) {
			case string:
				for _, b := range broadPolicies {
					if strings.Contains(p, b) {
						t.Errorf("%s: policy %s is too broad", id, p)
					}
				}
			case map[string]any:
				stmts, isDoc := p["Statement"].([]any)
				if !isDoc {
					for name := range p {
						if slices.Contains(broadPolicies, name) {
							t.Errorf("%s: SAM policy template %s grants Scan or DeleteItem", id, name)
						}
					}
					continue
				}
				for _, s := range stmts {
					checkStatement(t, id, s)
				}
			}
		}
	}
}

func checkStatement(t *testing.T, fn string, s any) {
	t.Helper()
	st, _ := s.(map[string]any)
	if st["Effect"] != "Allow" {
		return
	}
	if st["NotAction"] != nil || st["NotResource"] != nil {
		t.Errorf("%s: statement %v uses NotAction/NotResource", fn, st["Sid"])
	}
	actions := stringsOf(st["Action"])
	dynamo := false
	for _, a := range actions {
		for _, f := range forbidden {
			if ok, _ := path.Match(strings.ToLower(a), strings.ToLower(f)); ok {
				t.Errorf("%s: statement %v grants %s (as %s)", fn, st["Sid"], f, a)
			}
		}
		if strings.HasPrefix(strings.ToLower(a), "dynamodb:") || a == "*" {
			dynamo = true
		}
	}
	if dynamo {
		for _, r := range stringsOf(st["Resource"]) {
			if r == "*" {
				t.Errorf("%s: statement %v grants DynamoDB actions on every resource", fn, st["Sid"])
			}
		}
	}
}

// stringsOf reads an IAM field that is a string or a list; intrinsic
// functions ({"Fn::GetAtt": ...}) are not "*" and read as "".
func stringsOf(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			out = append(out, stringsOf(e)...)
		}
		return out
	}
	return []string{""}
}

// TestEnvironment: the API function gets the variables infra/config reads.
func TestEnvironment(t *testing.T) {
	tpl := loadTemplate(t)
	api, ok := tpl.functions(t)["ApiFunction"]
	if !ok {
		t.Fatal("no ApiFunction")
	}
	vars := maps.Clone(tpl.Globals.Function.Environment.Variables)
	if vars == nil {
		vars = map[string]any{}
	}
	maps.Copy(vars, api.Environment.Variables)
	for _, k := range []string{"TABLE_NAME", "LINK_KEYS_PARAMETER", "BASE_URL"} {
		if vars[k] == nil {
			t.Errorf("ApiFunction has no %s", k)
		}
	}
	if lf := or(api.LoggingConfig["LogFormat"], tpl.Globals.Function.LoggingConfig["LogFormat"]); lf != "JSON" {
		t.Errorf("LogFormat %v, want JSON (slog writes JSON lines)", lf)
	}
}
