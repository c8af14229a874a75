//go:build hello_notify

package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
)

// handler is notify's hello world: the table's, SES v2's and the keys'
// SSM clients, a stream batch answered with its failures (none).
func handler() any {
	cfg := loadAWS()
	db, mail, keys := dynamodb.NewFromConfig(cfg), sesv2.NewFromConfig(cfg), ssm.NewFromConfig(cfg)
	return func(_ context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
		_, _, _ = db, mail, keys
		return events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{}}, nil
	}
}
