//go:build hello_bounces

package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// handler is the bounces function's hello world: the table's client, an
// SNS event answered with no error.
func handler() any {
	cfg := loadAWS()
	db := dynamodb.NewFromConfig(cfg)
	return func(_ context.Context, ev events.SNSEvent) error {
		_ = db
		return nil
	}
}
