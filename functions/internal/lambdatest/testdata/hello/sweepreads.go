//go:build hello_sweep_reads

package main

import (
	"context"
	"errors"
	"os"
	"sync"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// handler is the sweep's hello world that also reads the table as the
// sweep must at every scheduled event: its SDK clients (mailClients),
// and four Queries of an empty partition at once, as the sweep reads the
// leagues, the games, the mail and the digests due at once
// (wiring.App.Sweep). Beside it the sweep's cold start shows what the
// sweep does besides the round trips a sweep cannot leave out.
func handler() any {
	db, mail, keys := mailClients()
	table := os.Getenv("TABLE_NAME")
	return func(ctx context.Context, ev events.EventBridgeEvent) error {
		_, _ = mail, keys
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Go(func() {
				_, errs[i] = db.Query(ctx, &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("#pk = :pk"),
					ExpressionAttributeNames:  map[string]string{"#pk": "pk"},
					ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "hello#none"}}})
			})
		}
		wg.Wait()
		return errors.Join(errs...)
	}
}
