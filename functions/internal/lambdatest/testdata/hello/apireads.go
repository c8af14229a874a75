//go:build hello_api_reads

package main

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
)

// handler is the api's hello world that makes the requests a seat's
// page makes on a cold start, one after another as the page does
// (httpapi's loadGame, then the view): the keyring's SecureString read
// from SSM, the game and its sent marker in one consistent BatchGetItem,
// the table talk's consistent Query; then it answers a page. Beside it
// the seat page's cold start shows what the page does besides the round
// trips it cannot leave out.
func handler() any {
	db, keys := apiClients()
	table, param := os.Getenv("TABLE_NAME"), os.Getenv("LINK_KEYS_PARAMETER")
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	return func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		var no events.APIGatewayV2HTTPResponse
		if _, err := keys.GetParameter(ctx, &ssm.GetParameterInput{Name: &param, WithDecryption: aws.Bool(true)}); err != nil {
			return no, err
		}
		game := []map[string]types.AttributeValue{{"pk": s("GAME#hello"), "sk": s("GAME")}, {"pk": s("GAME#hello"), "sk": s("SENT")}}
		if _, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			table: {Keys: game, ConsistentRead: aws.Bool(true)}}}); err != nil {
			return no, err
		}
		if _, err := db.Query(ctx, &dynamodb.QueryInput{TableName: &table,
			KeyConditionExpression:    aws.String("#pk = :pk AND #sk BETWEEN :lo AND :hi"),
			ExpressionAttributeNames:  map[string]string{"#pk": "pk", "#sk": "sk"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s("GAME#hello"), ":lo": s("TALK#"), ":hi": s("TALK#~")},
			ConsistentRead:            aws.Bool(true), ScanIndexForward: aws.Bool(false), Limit: aws.Int32(21)}); err != nil {
			return no, err
		}
		return page(ev), nil
	}
}
