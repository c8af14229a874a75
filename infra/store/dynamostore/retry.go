package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// ErrUnprocessed is the error of a batch that DynamoDB still left partly
// undone after every retry; its message says how much was left.
var ErrUnprocessed = errors.New("left unprocessed")

// retryPolicy bounds how a batch request is made again for what
// DynamoDB left unprocessed (UnprocessedKeys, UnprocessedItems): it does
// so when a table's or a partition's throughput is exceeded, or a
// BatchGetItem's answer would pass 16 MB. AWS asks for a backoff between
// the requests: before attempt i+1 a wait drawn at random from zero to
// base·2^(i-1), at most max ("full jitter").
type retryPolicy struct {
	attempts  int // requests in all, the first included
	base, max time.Duration
}

// defaultBatchRetry: eight requests at most, the seven waits' bounds
// adding up to about 2.6 s (1.3 s on average), well within the api's
// 10 s timeout.
var defaultBatchRetry = retryPolicy{attempts: 8, base: 25 * time.Millisecond, max: time.Second}

// BatchRetry sets how many requests a batch read or write makes at most
// (the first included; at least 1), and the base and the bound of the
// backoff between them.
func BatchRetry(attempts int, base, max time.Duration) Option {
	return func(s *Store) {
		s.batch = retryPolicy{attempts: attempts, base: base, max: max}
	}
}

// wait is the wait before attempt i+1 (i ≥ 1: after the i-th request).
func (p retryPolicy) wait(i int) time.Duration {
	bound := p.max
	if i-1 < 62 && p.base<<(i-1) > 0 {
		bound = min(p.base<<(i-1), p.max)
	}
	if bound <= 0 {
		return 0
	}
	return rand.N(bound + 1)
}

// run calls send until left says nothing of the batch is left (send
// updates it), waiting between the calls, at most p.attempts calls. An
// error of send ends it at once: the SDK's client has already retried
// what is worth retrying of one request. Past the bound, the error says
// how many of what (keys, writes) were left.
func (p retryPolicy) run(ctx context.Context, what string, left func() int, send func() error) error {
	attempts := max(p.attempts, 1)
	for i := 1; ; i++ {
		if err := send(); err != nil {
			return err
		}
		n := left()
		if n == 0 {
			return nil
		}
		if i == attempts {
			return fmt.Errorf("%d %s %w after %d requests", n, what, ErrUnprocessed, attempts)
		}
		t := time.NewTimer(p.wait(i))
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%d %s %w: %w", n, what, ErrUnprocessed, ctx.Err())
		case <-t.C:
		}
	}
}
