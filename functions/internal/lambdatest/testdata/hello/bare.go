//go:build !hello_api && !hello_api_reads && !hello_notify && !hello_sweep && !hello_bounces && !hello_sweep_reads && !hello_sweep_read

package main

import "context"

// handler is the bare hello world's: no AWS configuration, no client.
func handler() any {
	return func(context.Context, map[string]any) (map[string]string, error) {
		return map[string]string{"hello": "world"}, nil
	}
}
