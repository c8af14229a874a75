// Command hello is the smallest Go Lambda function: the yardstick every
// function's cold start is measured against (TestColdStart). It is built
// with the same flags as the project's functions.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/lambda"
)

func main() {
	lambda.Start(func(context.Context, map[string]any) (map[string]string, error) {
		return map[string]string{"hello": "world"}, nil
	})
}
