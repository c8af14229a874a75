//go:build hello_api

package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
)

// handler is the api's hello world: its SDK clients (apiClients), an
// HTTP API event answered with a page.
func handler() any {
	db, keys := apiClients()
	return func(_ context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		_, _ = db, keys
		return page(ev), nil
	}
}
