//go:build hello_sweep_reads

package main

// handler is the sweep's hello world that makes the four reads at once
// that the sweep makes at every scheduled event (the leagues, the games,
// the mail and the digests due: wiring.App.Sweep). Beside it the sweep's
// cold start shows what the sweep does besides the round trips it cannot
// leave out.
func handler() any { return readingHandler(4) }
