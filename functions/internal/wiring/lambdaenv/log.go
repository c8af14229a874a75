package lambdaenv

import (
	"context"
	"io"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambdacontext"

	"github.com/pbmgames/pbm/infra/lambdahttp"
)

// Logger is a Lambda function's logger: JSON lines on stdout, which
// Lambda's JSON log format keeps as they are, each tagged with the ids of
// the invocation it was written in (NewLogger).
func Logger() *slog.Logger { return NewLogger(os.Stdout) }

// NewLogger writes JSON lines to w. A line logged with the context of an
// invocation carries Lambda's request id as "requestId" (the name
// Lambda's own START, END and REPORT lines and its JSON log format use)
// and, for an API Gateway event, API Gateway's request id as
// "apiRequestId" (the requestId of the API's access log, template.yaml):
// an operator joins a line to its invocation and to its access log entry.
func NewLogger(w io.Writer) *slog.Logger {
	return slog.New(invocationIDs{slog.NewJSONHandler(w, nil)})
}

// invocationIDs adds the invocation's ids from the context to each record.
type invocationIDs struct{ slog.Handler }

func (h invocationIDs) Handle(ctx context.Context, r slog.Record) error {
	if lc, ok := lambdacontext.FromContext(ctx); ok && lc.AwsRequestID != "" {
		r.AddAttrs(slog.String("requestId", lc.AwsRequestID))
	}
	if id := lambdahttp.RequestID(ctx); id != "" {
		r.AddAttrs(slog.String("apiRequestId", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h invocationIDs) WithAttrs(as []slog.Attr) slog.Handler {
	return invocationIDs{h.Handler.WithAttrs(as)}
}

func (h invocationIDs) WithGroup(name string) slog.Handler {
	return invocationIDs{h.Handler.WithGroup(name)}
}
