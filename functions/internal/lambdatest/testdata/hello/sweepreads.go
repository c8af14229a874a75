//go:build hello_sweep_reads

package main

// handler is the sweep's hello world that makes the requests the sweep
// makes at every scheduled event on an empty table: four reads at once
// (the leagues, the games, the digests due and the mail of games written
// before mail keys), then the mail period's cursor read, its listing and
// the cursor's write (wiring.App.Sweep). Beside it the sweep's cold start
// shows what the sweep does besides the round trips it cannot leave out.
func handler() any { return readingHandler(4, true) }
