// Package ddb is a small DynamoDB client: the operations the store makes
// (GetItem, PutItem, UpdateItem, DeleteItem, Query, BatchGetItem, and
// CreateTable and DescribeTable for tests), with attribute values of its
// own (value.go) and the inputs and outputs as DynamoDB's JSON names
// them, called through package awsapi (SigV4, the SDK's endpoints and
// retries).
//
// Why not the SDK's client: importing service/dynamodb, or only its
// types package, runs the service's schema registry's init at every cold
// start: 0.77 ms and 587 KB of the api function's 3.2 ms package init
// (service/dynamodb/schemas, measured with GODEBUG=inittrace=1), and
// 0.16 ms more for its endpoint tables; see package awsapi.
//
// An error answer is an *awsapi.APIError (its ErrorCode the service's
// code), or for a failed condition a *ConditionalCheckFailedException
// carrying the item when ReturnValuesOnConditionCheckFailure asked for
// it.
package ddb

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/pbmgames/pbm/infra/awsapi"
)

// Options adjust a Client; see awsapi.Options.
type Options = awsapi.Options

// Client calls DynamoDB. It is safe for concurrent use.
type Client struct {
	api *awsapi.Client
}

// New returns a client with the region, credentials, endpoint
// (AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL, else the region's) and
// HTTP client of cfg; optFns adjust it (a test's HTTP client, say).
func New(cfg aws.Config, optFns ...func(*Options)) *Client {
	return &Client{api: awsapi.New(cfg, awsapi.DynamoDB, optFns...)}
}

// Endpoint is where the client sends its requests.
func (c *Client) Endpoint() (string, error) { return c.api.Endpoint() }

// ConditionalCheckFailedException is the error of a write whose condition
// failed. Item is the item as it was, if the request asked for it
// (ReturnValuesOnConditionCheckFailure ALL_OLD) and the server returned
// it (AWS does, dynalite does not).
type ConditionalCheckFailedException struct {
	*awsapi.APIError
	Item Item
}

// Unwrap gives the service's error.
func (e *ConditionalCheckFailedException) Unwrap() error { return e.APIError }

// call makes one operation whose answer is an Out.
func call[Out any](ctx context.Context, c *Client, op string, in any) (*Out, error) {
	var out Out
	if err := c.do(ctx, op, in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// do makes one operation, giving a failed condition as a
// *ConditionalCheckFailedException.
func (c *Client) do(ctx context.Context, op string, in, out any) error {
	err := c.api.JSON(ctx, op, in, out)
	var ae *awsapi.APIError
	if errors.As(err, &ae) && ae.Code == "ConditionalCheckFailedException" {
		var carried struct{ Item Item }
		_ = ae.Decode(&carried) // without the item if it cannot be read
		return &ConditionalCheckFailedException{APIError: ae, Item: carried.Item}
	}
	return err
}

// ConsumedCapacity is what a request cost, when asked
// (ReturnConsumedCapacity "TOTAL").
type ConsumedCapacity struct {
	TableName          string  `json:",omitempty"`
	CapacityUnits      float64 `json:",omitempty"`
	ReadCapacityUnits  float64 `json:",omitempty"`
	WriteCapacityUnits float64 `json:",omitempty"`
}

// The inputs and outputs, in the members used; empty members are left
// out, as DynamoDB's defaults are their zero values (ScanIndexForward
// excepted, whence its pointer).
type (
	GetItemInput struct {
		TableName                string
		Key                      Item
		ConsistentRead           bool              `json:",omitempty"`
		ProjectionExpression     string            `json:",omitempty"`
		ExpressionAttributeNames map[string]string `json:",omitempty"`
		ReturnConsumedCapacity   string            `json:",omitempty"`
	}
	GetItemOutput struct {
		Item             Item
		ConsumedCapacity *ConsumedCapacity
	}

	PutItemInput struct {
		TableName                           string
		Item                                Item
		ConditionExpression                 string            `json:",omitempty"`
		ExpressionAttributeNames            map[string]string `json:",omitempty"`
		ExpressionAttributeValues           Item              `json:",omitempty"`
		ReturnValues                        string            `json:",omitempty"`
		ReturnValuesOnConditionCheckFailure string            `json:",omitempty"`
		ReturnConsumedCapacity              string            `json:",omitempty"`
	}
	// PutItemOutput, UpdateItemOutput and DeleteItemOutput are a
	// writeOutput: the attributes ReturnValues asked for.
	PutItemOutput = writeOutput
	writeOutput   struct {
		Attributes       Item
		ConsumedCapacity *ConsumedCapacity
	}

	UpdateItemInput struct {
		TableName                           string
		Key                                 Item
		UpdateExpression                    string            `json:",omitempty"`
		ConditionExpression                 string            `json:",omitempty"`
		ExpressionAttributeNames            map[string]string `json:",omitempty"`
		ExpressionAttributeValues           Item              `json:",omitempty"`
		ReturnValues                        string            `json:",omitempty"`
		ReturnValuesOnConditionCheckFailure string            `json:",omitempty"`
		ReturnConsumedCapacity              string            `json:",omitempty"`
	}
	UpdateItemOutput = writeOutput

	DeleteItemInput struct {
		TableName                           string
		Key                                 Item
		ConditionExpression                 string            `json:",omitempty"`
		ExpressionAttributeNames            map[string]string `json:",omitempty"`
		ExpressionAttributeValues           Item              `json:",omitempty"`
		ReturnValues                        string            `json:",omitempty"`
		ReturnValuesOnConditionCheckFailure string            `json:",omitempty"`
		ReturnConsumedCapacity              string            `json:",omitempty"`
	}
	DeleteItemOutput = writeOutput

	QueryInput struct {
		TableName                 string
		IndexName                 string            `json:",omitempty"`
		KeyConditionExpression    string            `json:",omitempty"`
		FilterExpression          string            `json:",omitempty"`
		ProjectionExpression      string            `json:",omitempty"`
		ExpressionAttributeNames  map[string]string `json:",omitempty"`
		ExpressionAttributeValues Item              `json:",omitempty"`
		ConsistentRead            bool              `json:",omitempty"`
		ScanIndexForward          *bool             `json:",omitempty"`
		Limit                     int32             `json:",omitempty"`
		ExclusiveStartKey         Item              `json:",omitempty"`
		Select                    string            `json:",omitempty"`
		ReturnConsumedCapacity    string            `json:",omitempty"`
	}
	QueryOutput struct {
		Items            []Item
		Count            int32
		ScannedCount     int32
		LastEvaluatedKey Item
		ConsumedCapacity *ConsumedCapacity
	}

	// KeysAndAttributes are the keys BatchGetItem reads of one table.
	KeysAndAttributes struct {
		Keys                     []Item
		ConsistentRead           bool              `json:",omitempty"`
		ProjectionExpression     string            `json:",omitempty"`
		ExpressionAttributeNames map[string]string `json:",omitempty"`
	}
	BatchGetItemInput struct {
		RequestItems           map[string]KeysAndAttributes
		ReturnConsumedCapacity string `json:",omitempty"`
	}
	BatchGetItemOutput struct {
		Responses        map[string][]Item
		UnprocessedKeys  map[string]KeysAndAttributes
		ConsumedCapacity []ConsumedCapacity
	}

	// WriteRequest is one write of a BatchWriteItem: the store puts
	// items, never deletes them (they expire by TTL).
	WriteRequest struct {
		PutRequest *PutRequest `json:",omitempty"`
	}
	PutRequest struct {
		Item Item
	}
	BatchWriteItemInput struct {
		RequestItems           map[string][]WriteRequest
		ReturnConsumedCapacity string `json:",omitempty"`
	}
	BatchWriteItemOutput struct {
		UnprocessedItems map[string][]WriteRequest
		ConsumedCapacity []ConsumedCapacity
	}
)

// Values of ReturnValues, ReturnValuesOnConditionCheckFailure and
// ReturnConsumedCapacity.
const (
	ReturnValueAllOld     = "ALL_OLD"
	ReturnValueUpdatedNew = "UPDATED_NEW"
	ReturnValueAllNew     = "ALL_NEW"
	ConsumedCapacityTotal = "TOTAL"
)

// GetItem reads one item; Item is nil if there is none.
func (c *Client) GetItem(ctx context.Context, in *GetItemInput) (*GetItemOutput, error) {
	return call[GetItemOutput](ctx, c, "GetItem", in)
}

// PutItem writes one item.
func (c *Client) PutItem(ctx context.Context, in *PutItemInput) (*PutItemOutput, error) {
	return call[PutItemOutput](ctx, c, "PutItem", in)
}

// UpdateItem updates (or creates) one item.
func (c *Client) UpdateItem(ctx context.Context, in *UpdateItemInput) (*UpdateItemOutput, error) {
	return call[UpdateItemOutput](ctx, c, "UpdateItem", in)
}

// DeleteItem deletes one item.
func (c *Client) DeleteItem(ctx context.Context, in *DeleteItemInput) (*DeleteItemOutput, error) {
	return call[DeleteItemOutput](ctx, c, "DeleteItem", in)
}

// Query reads one page of a query; LastEvaluatedKey is set while more
// may follow (QueryPages reads them all).
func (c *Client) Query(ctx context.Context, in *QueryInput) (*QueryOutput, error) {
	return call[QueryOutput](ctx, c, "Query", in)
}

// QueryPages runs in page after page, from in's ExclusiveStartKey on,
// calling each on every page, until the last page or an error (each's
// included). in is not changed.
func (c *Client) QueryPages(ctx context.Context, in *QueryInput, each func(*QueryOutput) error) error {
	page := *in
	for {
		out, err := c.Query(ctx, &page)
		if err != nil {
			return err
		}
		if err := each(out); err != nil {
			return err
		}
		if len(out.LastEvaluatedKey) == 0 {
			return nil
		}
		page.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// BatchGetItem reads up to 100 items in one request; what the server
// left unread comes back in UnprocessedKeys.
func (c *Client) BatchGetItem(ctx context.Context, in *BatchGetItemInput) (*BatchGetItemOutput, error) {
	return call[BatchGetItemOutput](ctx, c, "BatchGetItem", in)
}

// MaxBatchWrite is the most writes one BatchWriteItem carries.
const MaxBatchWrite = 25

// BatchWriteItem puts up to MaxBatchWrite items in one request, each
// unconditionally; what the server left unwritten comes back in
// UnprocessedItems.
func (c *Client) BatchWriteItem(ctx context.Context, in *BatchWriteItemInput) (*BatchWriteItemOutput, error) {
	return call[BatchWriteItemOutput](ctx, c, "BatchWriteItem", in)
}

// The table management the tests and the local tools need.
type (
	AttributeDefinition struct {
		AttributeName string
		AttributeType string // "S", "N", "B"
	}
	KeySchemaElement struct {
		AttributeName string
		KeyType       string // "HASH", "RANGE"
	}
	Projection struct {
		ProjectionType string // "KEYS_ONLY", "ALL", "INCLUDE"
	}
	GlobalSecondaryIndex struct {
		IndexName  string
		KeySchema  []KeySchemaElement
		Projection Projection
	}
	CreateTableInput struct {
		TableName              string
		BillingMode            string
		AttributeDefinitions   []AttributeDefinition
		KeySchema              []KeySchemaElement
		GlobalSecondaryIndexes []GlobalSecondaryIndex `json:",omitempty"`
	}
	DescribeTableInput struct {
		TableName string
	}
	// TableDescription is the part of a table's description read.
	TableDescription struct {
		TableName   string
		TableStatus string // "CREATING", "ACTIVE", ...
	}
	DescribeTableOutput struct {
		Table *TableDescription
	}
)

// CreateTable creates a table; it is ACTIVE later (WaitForTable).
func (c *Client) CreateTable(ctx context.Context, in *CreateTableInput) error {
	return c.do(ctx, "CreateTable", in, nil)
}

// DescribeTable describes a table.
func (c *Client) DescribeTable(ctx context.Context, in *DescribeTableInput) (*DescribeTableOutput, error) {
	return call[DescribeTableOutput](ctx, c, "DescribeTable", in)
}

// WaitForTable waits until the table is ACTIVE, looking every poll, as
// the SDK's TableExistsWaiter does, for at most the context's time.
func (c *Client) WaitForTable(ctx context.Context, table string, poll time.Duration) error {
	for {
		out, err := c.DescribeTable(ctx, &DescribeTableInput{TableName: table})
		var ae *awsapi.APIError
		switch {
		case err == nil && out.Table != nil && out.Table.TableStatus == "ACTIVE":
			return nil
		case err != nil && !(errors.As(err, &ae) && ae.Code == "ResourceNotFoundException"):
			return err
		}
		t := time.NewTimer(poll)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}
