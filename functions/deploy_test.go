package functions_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/deploy"
)

// deployedStack is the stack the limits are measured for: samconfig.toml's
// name and region, the parameters a guided deploy asks for, and the other
// parameters' defaults.
var deployedStack = deploy.Stack{
	Name: "pbm", Region: deploy.Region, Account: "123456789012",
	Parameters: map[string]string{"MailFrom": "Play by mail <pbm@example.org>"},
}

func transformed(t *testing.T) *deploy.Transformed {
	t.Helper()
	tr, err := deploy.Transform(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestDeployLimits runs the SAM transform locally and holds its output to
// the quotas that stop a deploy (package deploy lists them): a function's
// resource-based policy, the template's size, its resources, outputs and
// parameters, the roles' inline policies, names given with the longest
// stack name. The figures are logged (go test -run TestDeployLimits -v).
func TestDeployLimits(t *testing.T) {
	tr := transformed(t)
	f, broken := deploy.Limits(tr, deployedStack)
	t.Logf("template.yaml %d bytes (inline limit %d, S3 %d); transformed %d bytes, %d resources, %d outputs, %d parameters",
		f.SourceBytes, deploy.MaxTemplateBodyInline, deploy.MaxTemplateBodyS3, f.TransformedBytes, f.Resources, f.Outputs, f.Parameters)
	for _, fn := range slices.Sorted(maps.Keys(f.FunctionPolicy)) {
		t.Logf("%s: resource-based policy %d bytes, %d permissions (limit %d)", fn, f.FunctionPolicy[fn], f.Permissions[fn], deploy.MaxFunctionPolicy)
	}
	for _, role := range slices.Sorted(maps.Keys(f.RoleInline)) {
		t.Logf("%s: inline policies %d characters (limit %d)", role, f.RoleInline[role], deploy.MaxRoleInlinePolicies)
	}
	for _, b := range broken {
		t.Error(b)
	}
}
