package service

import (
	"sync"
	"time"

	"github.com/pbmgames/pbm/infra/linksign"
)

// keySource is the service's link keys: given at once (Config.Keys) or
// arriving later (Config.KeysLater).
type keySource struct {
	mu    sync.Mutex
	keys  *linksign.Keyring
	later func() (*linksign.Keyring, error)
}

func newKeySource(keys *linksign.Keyring, later func() (*linksign.Keyring, error)) *keySource {
	if later != nil {
		keys = nil
	}
	return &keySource{keys: keys, later: later}
}

// get returns the keys, waiting for them the first time they arrive
// later. A read that failed is tried again at the next get: a Lambda
// whose first read failed (SSM throttled, say) is not broken for its
// lifetime. Calls wait for each other (one read at a time).
func (k *keySource) get() (*linksign.Keyring, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.keys != nil || k.later == nil {
		return k.keys, nil
	}
	keys, err := k.later()
	if err != nil {
		return nil, err // the source says what failed ("link keys unavailable …")
	}
	k.keys = keys
	return keys, nil
}

// Sign is linksign.Keyring.Sign with the keys.
func (k *keySource) Sign(c linksign.Claims) (string, error) {
	keys, err := k.get()
	if err != nil {
		return "", err
	}
	return keys.Sign(c)
}

// Verify is linksign.Keyring.Verify with the keys. Keys that could not
// be read fail it with their error, which is no linksign error: the
// caller answers it as ours (CodeInternal), not as a bad token.
func (k *keySource) Verify(token string, now time.Time, want linksign.Expect) (linksign.Claims, error) {
	keys, err := k.get()
	if err != nil {
		return linksign.Claims{}, err
	}
	return keys.Verify(token, now, want)
}
