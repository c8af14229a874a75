//go:build hello_api

package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
)

// handler is the api's hello world: the table's client and the keys'
// SSM client, an HTTP API event answered with a page.
func handler() any {
	cfg := loadAWS()
	db, keys := dynamodb.NewFromConfig(cfg), ssm.NewFromConfig(cfg)
	return func(_ context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		_, _ = db, keys
		return events.APIGatewayV2HTTPResponse{StatusCode: 200, Headers: map[string]string{"Content-Type": "text/html; charset=utf-8"},
			Body: "<!doctype html><title>hello</title><p>hello, " + ev.RawPath + "</p></html>"}, nil
	}
}
