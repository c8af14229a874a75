package lambdaenv

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"

	"github.com/pbmgames/pbm/infra/lambdahttp"
)

// TestLoggerIDs: a line logged with an invocation's context carries
// Lambda's and API Gateway's request ids, also through a logger made
// With attributes; a line logged outside an invocation carries neither.
func TestLoggerIDs(t *testing.T) {
	var out bytes.Buffer
	log := NewLogger(&out)
	ctx := lambdacontext.NewContext(context.Background(), &lambdacontext.LambdaContext{AwsRequestID: "8476a536-e9f4-11e8-9739-2dfe598c3fcd"})
	var ev events.APIGatewayV2HTTPRequest
	ev.RequestContext.HTTP.Method, ev.RawPath, ev.RequestContext.RequestID = "GET", "/", "Jx9qvhB7oAMEYhQ="
	_, err := lambdahttp.Serve(ctx, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.InfoContext(r.Context(), "in the handler")
		log.With("game", "g1").WarnContext(r.Context(), "with attributes")
	}), ev)
	if err != nil {
		t.Fatal(err)
	}
	log.InfoContext(ctx, "a stream event")
	log.Info("init")

	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []struct{ lambda, api any }{
		{"8476a536-e9f4-11e8-9739-2dfe598c3fcd", "Jx9qvhB7oAMEYhQ="},
		{"8476a536-e9f4-11e8-9739-2dfe598c3fcd", "Jx9qvhB7oAMEYhQ="},
		{"8476a536-e9f4-11e8-9739-2dfe598c3fcd", nil},
		{nil, nil},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i, line := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("line %d is not JSON: %v: %s", i, err, line)
		}
		if rec["requestId"] != want[i].lambda || rec["apiRequestId"] != want[i].api {
			t.Errorf("line %d: requestId %v, apiRequestId %v; want %v, %v", i, rec["requestId"], rec["apiRequestId"], want[i].lambda, want[i].api)
		}
	}
}
