//go:build ignore

// gen writes lengths.json as Go, lengths_gen.go (lengths.Source), for
// `go generate`: after the simulator wrote the file (make lengths does
// both), or after a merge brought a new one.
package main

import (
	"fmt"
	"go/format"
	"os"

	"github.com/pbmgames/pbm/functions/internal/lengths"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	b, err := os.ReadFile("lengths.json")
	if err != nil {
		return err
	}
	d, err := lengths.Decode(b)
	if err != nil {
		return err
	}
	src, err := format.Source(lengths.Source(d))
	if err != nil {
		return fmt.Errorf("format: %w", err)
	}
	return os.WriteFile("lengths_gen.go", src, 0o644)
}
