// Command api is the HTTP API Lambda function (ApiFunction in
// template.yaml): API Gateway HTTP API events served by the same handler,
// wired the same way (package wiring), as the local run, on the DynamoDB
// table. The application is wired once, at init; the routes are made
// beside the runtime's first request for an event, and the first request
// waits for them; the link keys are read at their first use.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/pbmgames/pbm/functions/internal/coldgc"
	"github.com/pbmgames/pbm/functions/internal/wiring"
	"github.com/pbmgames/pbm/functions/internal/wiring/web"
	"github.com/pbmgames/pbm/infra/lambdahttp"
)

func main() {
	app := wiring.Init(wiring.API)
	lambda.Start(coldgc.Handler(lambda.NewHandler(lambdahttp.Handler(web.Begun(app)))))
}
