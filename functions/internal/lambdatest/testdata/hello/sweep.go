//go:build hello_sweep

package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
)

// handler is the sweep's hello world: the table's, SES v2's and the
// keys' SSM clients, a scheduled event answered with no error.
func handler() any {
	cfg := loadAWS()
	db, mail, keys := dynamodb.NewFromConfig(cfg), sesv2.NewFromConfig(cfg), ssm.NewFromConfig(cfg)
	return func(_ context.Context, ev events.EventBridgeEvent) error {
		_, _, _ = db, mail, keys
		return nil
	}
}
