// Command api is the HTTP API Lambda function (ApiFunction in
// template.yaml): API Gateway HTTP API events served by the same handler,
// wired the same way (package wiring), as the local run, on the DynamoDB
// table. Everything is built once, at init.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/wiring"
	"github.com/pbmgames/pbm/functions/internal/wiring/web"
	"github.com/pbmgames/pbm/infra/lambdahttp"
)

func main() {
	// The routes are made while the init waits for the link keys:
	// making them is 0.3 ms, the keys' round trip to SSM 1.1 ms or more.
	var routes *httpapi.Router
	app := wiring.Init(wiring.API.While(func() { routes = httpapi.NewRouter() }))
	lambda.Start(lambdahttp.Handler(web.On(routes, app)))
}
