//go:build hello_sweep_read

package main

// handler is the sweep's hello world that makes one read: beside the
// hello world that makes none (sweep.go), it shows what a single round
// trip to the table adds to a hello world's cold start.
func handler() any { return readingHandler(1, false) }
