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
	// The routes are made while the init reads the configuration and
	// waits for the link keys (wiring.Init): making them is 0.3 ms, the
	// keys' round trip to SSM 1.3 ms or more.
	routes := make(chan *httpapi.Router, 1)
	go func() { routes <- httpapi.NewRouter() }()
	app := wiring.Init(wiring.API)
	lambda.Start(lambdahttp.Handler(web.On(<-routes, app)))
}
