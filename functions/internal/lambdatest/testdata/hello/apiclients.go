//go:build hello_api || hello_api_reads

package main

import (
	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
)

// apiClients are the api's SDK clients: the table's and the keys' SSM
// client.
func apiClients() (*dynamodb.Client, *ssm.Client) {
	cfg := loadAWS()
	return dynamodb.NewFromConfig(cfg), ssm.NewFromConfig(cfg)
}

// page is the api's hello worlds' answer to an HTTP API event: a page.
func page(ev events.APIGatewayV2HTTPRequest) events.APIGatewayV2HTTPResponse {
	return events.APIGatewayV2HTTPResponse{StatusCode: 200, Headers: map[string]string{"Content-Type": "text/html; charset=utf-8"},
		Body: "<!doctype html><title>hello</title><p>hello, " + ev.RawPath + "</p></html>"}
}
