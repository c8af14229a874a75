//go:build hello_notify

package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
)

// handler is notify's hello world: its SDK clients (mailClients), a
// stream batch answered with its failures (none).
func handler() any {
	db, mail, keys := mailClients()
	return func(_ context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
		_, _, _ = db, mail, keys
		return events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{}}, nil
	}
}
