// Package coldgc holds the garbage collector off through a Lambda
// function's cold start: from package initialisation to its first
// answer. A function's main wraps its handler in Handler.
//
// The AWS SDK's package inits alone allocate some 3 MB (its schema
// registries and endpoint tables), the runtime's first heap goal is
// 4 MB, and the configuration, the clients and the first invocation
// take the heap past it: without this, every cold start ran a GC cycle
// before its first answer (1–2 ms of the api's, its mark workers beside
// the init on the function's CPU), for a heap most of which stays live.
// Held off, the heap grows to a bound (a quarter of the function's
// memory, holdLimit) before any cycle; the collector is given back its
// settings (GOGC, GOMEMLIMIT, the runtime's defaults) when the next
// invocation begins, after the first answer has gone, and runs then as
// it always did.
//
// Its init is not the first: Go initialises packages in import path
// order among those whose imports are done, and runtime/debug, which it
// needs, comes after the SDK's (github.com/aws/...), so the SDK's
// package inits run before it. The api's stay under the first heap goal;
// notify's and the sweep's (SES v2's schemas besides) sometimes reach it,
// and then the cycle under way finishes before the hold begins. A GOGC
// in the function's environment would hold it off from the runtime's
// start, but for every invocation, not the first alone.
//
// It does this in Lambda only (AWS_LAMBDA_RUNTIME_API set): tests and
// the local run see the runtime's defaults.
package coldgc

import (
	"context"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
)

// restore gives the collector back its settings; nil outside Lambda.
var restore func()

func init() { hold(os.Getenv("AWS_LAMBDA_RUNTIME_API"), os.Getenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE")) }

// hold holds the collector off, up to holdLimit's heap, if runtimeAPI is
// set (the process is a Lambda function's).
func hold(runtimeAPI, memoryMB string) {
	if runtimeAPI == "" {
		return
	}
	limit := debug.SetMemoryLimit(-1) // GOMEMLIMIT's, or none
	debug.SetMemoryLimit(min(limit, holdLimit(memoryMB)))
	percent := debug.SetGCPercent(-1)
	restore = sync.OnceFunc(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}

// holdLimit is the memory limit while the collector is held off: a
// quarter of the function's memory (AWS_LAMBDA_FUNCTION_MEMORY_SIZE, in
// MB; 64 MiB of template.yaml's 256 MB), 64 MiB if it does not say
// (or GOMEMLIMIT, if that is lower: hold keeps the lower). The
// cold start of every function allocates a few MB; a first invocation
// that allocates more (a sweep of many games) is collected at the
// limit, as the runtime does under GOMEMLIMIT.
func holdLimit(memoryMB string) int64 {
	mb, err := strconv.ParseInt(memoryMB, 10, 64)
	if err != nil || mb <= 0 {
		mb = 256
	}
	return mb << 20 / 4
}

// Invoker is a Lambda handler as the runtime calls it: lambda.Handler
// (lambda.NewHandler makes one of any handler lambda.Start takes).
type Invoker interface {
	Invoke(ctx context.Context, payload []byte) ([]byte, error)
}

// Handler is h, giving the collector back its settings as the second
// invocation begins: the first answer has then gone, and the cycle it
// was spared runs beside that invocation, as any other would.
func Handler(h Invoker) Invoker {
	if restore == nil {
		return h
	}
	// Invocations may run at once (AWS_LAMBDA_MAX_CONCURRENCY): the
	// second to begin gives the settings back.
	var begun atomic.Bool
	return invoke(func(ctx context.Context, payload []byte) ([]byte, error) {
		if begun.Swap(true) {
			restore()
		}
		return h.Invoke(ctx, payload)
	})
}

// invoke is a function as an Invoker.
type invoke func(context.Context, []byte) ([]byte, error)

func (f invoke) Invoke(ctx context.Context, payload []byte) ([]byte, error) { return f(ctx, payload) }
