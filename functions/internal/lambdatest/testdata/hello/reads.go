//go:build hello_sweep_reads || hello_sweep_read

package main

import (
	"context"
	"errors"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// readingHandler is the sweep's hello world that also reads the table,
// as the sweep must at every scheduled event: its SDK clients
// (mailClients), n Queries of an empty partition at once and then, if
// mailPeriod, the requests the sweep makes in turn for the mail period
// that ended since the sweep before it (wiring.App.Sweep,
// service.MailPeriods): a GetItem of a cursor, a Query of the period's
// partition, a PutItem of the cursor.
func readingHandler(n int, mailPeriod bool) any {
	db, mail, keys := mailClients()
	table := os.Getenv("TABLE_NAME")
	query := func(ctx context.Context, pk string) error {
		_, err := db.Query(ctx, &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("#pk = :pk"),
			ExpressionAttributeNames:  map[string]string{"#pk": "pk"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}}})
		return err
	}
	cursor := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "hello#cursor"}, "sk": &types.AttributeValueMemberS{Value: "SENT"}}
	return func(ctx context.Context, ev events.EventBridgeEvent) error {
		_, _ = mail, keys
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range errs {
			wg.Go(func() { errs[i] = query(ctx, "hello#none") })
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil || !mailPeriod {
			return err
		}
		if _, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, Key: cursor, ConsistentRead: aws.Bool(true)}); err != nil {
			return err
		}
		if err := query(ctx, "hello#period"); err != nil {
			return err
		}
		item := map[string]types.AttributeValue{"body": &types.AttributeValueMemberS{Value: strconv.FormatInt(time.Now().Unix(), 10)}}
		for k, v := range cursor {
			item[k] = v
		}
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: item})
		return err
	}
}
