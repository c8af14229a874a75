//go:build hello_sweep_read

package main

// handler is the sweep's hello world that makes one read: beside the
// hello world that makes none (sweep.go), it shows what a single round
// trip to the table costs a cold start, the least any function that must
// read before it answers can add.
func handler() any { return readingHandler(1) }
