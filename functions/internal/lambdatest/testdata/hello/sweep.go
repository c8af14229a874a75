//go:build hello_sweep

package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
)

// handler is the sweep's hello world: its SDK clients (mailClients), a
// scheduled event answered with no error.
func handler() any {
	db, mail, keys := mailClients()
	return func(_ context.Context, ev events.EventBridgeEvent) error {
		_, _, _ = db, mail, keys
		return nil
	}
}
