package e2e

import (
	"context"
	"net/http"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/deploy"
	"github.com/pbmgames/pbm/functions/internal/iamwire"
	"github.com/pbmgames/pbm/infra/testenv"
)

// iamChecked is base (the DynamoDB client's transport) holding each
// request to the policy of the function whose work it is, in the
// deployed stack with table as its table (package iamwire). The work is
// marked by asAPI (requests served by the HTTP handler: the api function)
// and asNotify (the notifier run after a commit: the notify function);
// what a test does itself to set up and look is passed on unchecked.
func iamChecked(t testing.TB, table string, base http.RoundTripper) *iamwire.Transport {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := deploy.Transform(root)
	if err != nil {
		t.Fatal(err)
	}
	stack := deploy.Stack{Name: "pbm", Region: deploy.Region, Account: "123456789012",
		Parameters: map[string]string{"MailFrom": "games@pbm.test"},
		Physical:   map[string]string{"Table": table, "MailConfigurationSet": "pbm"}}
	guards := map[string]*iamwire.Guard{}
	for _, id := range []string{"ApiFunction", "NotifyFunction", "SweepFunction"} {
		g, err := iamwire.NewGuard(tr, stack, id)
		if err != nil {
			t.Fatal(err)
		}
		guards[id] = g
	}
	tt := &iamwire.Transport{T: t, Base: base, Guards: guards}
	t.Cleanup(func() {
		checked, unmarked := tt.Counts()
		t.Logf("IAM check: %d requests held to a function's policy, %d of the test's own passed on", checked, unmarked)
	})
	return tt
}

// asAPI marks the requests h serves as the api function's work.
func asAPI(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(iamwire.WithFunction(r.Context(), "ApiFunction")))
	})
}

// asNotify marks ctx as the notify function's work.
func asNotify(ctx context.Context) context.Context {
	return iamwire.WithFunction(ctx, "NotifyFunction")
}
