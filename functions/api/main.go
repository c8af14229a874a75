// Command api is the HTTP API Lambda function (ApiFunction in
// template.yaml): API Gateway HTTP API events served by the same handler,
// wired the same way (package wiring), as the local run, on the DynamoDB
// table. The application is wired once, at init; the routes and the
// link keys are ready by the first request, which waits for them.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/pbmgames/pbm/functions/internal/coldgc"
	"github.com/pbmgames/pbm/functions/internal/wiring"
	// The link keys' read starts at package init, before main: most
	// first invocations need them (lambdaenv.Load).
	_ "github.com/pbmgames/pbm/functions/internal/wiring/lambdaenv/earlykeys"
	"github.com/pbmgames/pbm/functions/internal/wiring/web"
	"github.com/pbmgames/pbm/infra/lambdahttp"
)

func main() {
	app := wiring.Init(wiring.API)
	lambda.Start(coldgc.Handler(lambda.NewHandler(lambdahttp.Handler(web.Begun(app)))))
}
