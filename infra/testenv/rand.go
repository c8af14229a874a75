package testenv

import (
	"crypto/sha256"
	"io"
	mathrand "math/rand/v2"
	"sync"
)

// Rand is a deterministic source of randomness for a service under test
// (service.Config.Rand: game seeds and ids), seeded from name: the same
// games, dealt the same way, every run, so that a test's result never
// depends on a seed that is not fixed. It is safe for concurrent use; the
// order of concurrent reads, and so which game gets which seed, is then
// up to the scheduler.
func Rand(name string) io.Reader {
	return &lockedReader{r: mathrand.NewChaCha8(sha256.Sum256([]byte("pbm test seed: " + name)))}
}

type lockedReader struct {
	mu sync.Mutex
	r  *mathrand.ChaCha8
}

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}
