package functions_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The SDK's service clients the functions must link (SPEC §6: the SDK's
// own clients, never a hand-written AWS protocol client).
const (
	sdkDynamoDB = "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	sdkSESv2    = "github.com/aws/aws-sdk-go-v2/service/sesv2"
	sdkSSM      = "github.com/aws/aws-sdk-go-v2/service/ssm"
	sdkConfig   = "github.com/aws/aws-sdk-go-v2/config"
)

// goList runs `go list` with args for the Lambda functions' platform and
// build tags (the Makefile's LAMBDA_ENV and LAMBDA_FLAGS), from the
// repository's root, and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-tags", "lambda.norpc"}, args...)...)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=arm64")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// TestFunctionsLinkTheSDK: every function talks to DynamoDB through the
// SDK's client and loads its AWS configuration through the SDK's config
// package (the default credential chain); notify and sweep send through
// the SDK's SES v2 client; the three that sign links read their keys
// through the SDK's SSM client; bounces, which needs the table alone,
// links neither SES nor SSM.
func TestFunctionsLinkTheSDK(t *testing.T) {
	for pkg, want := range map[string]struct{ links, not []string }{
		"./functions/api":     {links: []string{sdkDynamoDB, sdkSSM, sdkConfig}, not: []string{sdkSESv2}},
		"./functions/notify":  {links: []string{sdkDynamoDB, sdkSESv2, sdkSSM, sdkConfig}},
		"./functions/sweep":   {links: []string{sdkDynamoDB, sdkSESv2, sdkSSM, sdkConfig}},
		"./functions/bounces": {links: []string{sdkDynamoDB, sdkConfig}, not: []string{sdkSESv2, sdkSSM}},
	} {
		deps := goList(t, "-deps", "-f", "{{.ImportPath}}", pkg)
		for _, p := range want.links {
			if !slices.Contains(deps, p) {
				t.Errorf("%s does not link %s", pkg, p)
			}
		}
		for _, p := range want.not {
			if slices.Contains(deps, p) {
				t.Errorf("%s links %s, which it does not use", pkg, p)
			}
		}
	}
}

// What speaking an AWS wire protocol by hand takes: signing requests
// (SigV4), the protocols' own encodings, and the headers and content
// types of the JSON protocols. The SDK's clients do all of it.
var (
	protocolImports = []string{
		"github.com/aws/aws-sdk-go-v2/aws/signer/",
		"github.com/aws/aws-sdk-go-v2/aws/protocol/",
		"github.com/aws/smithy-go/encoding/",
	}
	protocolText = []string{"x-amz-target", "x-amz-date", "x-amz-security-token", "aws4-hmac-sha256", "application/x-amz-json", "amazonaws.com"}
)

// TestNoHandWrittenAWSProtocol: no package of ours that a function or the
// local run links (the production code under functions/ and infra/)
// imports the SDK's signer or protocol encoders itself, or names the
// headers, content types or endpoints of an AWS protocol: every AWS
// request goes through an SDK service client. (The tests' stand-in of
// SSM, infra/testenv, reads those headers as a server does; no function
// links it, which this checks too.)
func TestNoHandWrittenAWSProtocol(t *testing.T) {
	const self = "github.com/pbmgames/pbm/"
	lines := goList(t, "-deps", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .Imports \" \"}}\t{{join .GoFiles \" \"}}",
		"./functions/api", "./functions/notify", "./functions/sweep", "./functions/bounces", "./functions/local")
	ours := 0
	for _, line := range lines {
		f := strings.Split(line, "\t")
		if len(f) != 4 || !strings.HasPrefix(f[0], self) {
			continue
		}
		ours++
		pkg, dir := f[0], f[1]
		if strings.HasPrefix(pkg, self+"infra/testenv") {
			t.Errorf("%s is linked by a function: it is the tests' own", pkg)
		}
		for _, imp := range strings.Fields(f[2]) {
			for _, bad := range protocolImports {
				if strings.HasPrefix(imp, bad) {
					t.Errorf("%s imports %s: AWS requests go through the SDK's service clients", pkg, imp)
				}
			}
		}
		for _, file := range strings.Fields(f[3]) {
			src, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			text := strings.ToLower(string(src))
			for _, bad := range protocolText {
				if strings.Contains(text, bad) {
					t.Errorf("%s (%s) names %q: AWS requests go through the SDK's service clients", pkg, file, bad)
				}
			}
		}
	}
	if ours < 20 {
		t.Fatalf("only %d of our packages listed: the listing is wrong", ours)
	}
}
