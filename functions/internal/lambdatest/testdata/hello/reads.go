//go:build hello_sweep_reads || hello_sweep_read

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

// readingHandler is the sweep's hello world that also reads the table,
// as the sweep must at every scheduled event: its SDK clients
// (mailClients), and n Queries of an empty partition at once.
func readingHandler(n int) any {
	db, mail, keys := mailClients()
	table := os.Getenv("TABLE_NAME")
	return func(ctx context.Context, ev events.EventBridgeEvent) error {
		_, _ = mail, keys
		var wg sync.WaitGroup
		errs := make([]error, n)
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
