package service

import (
	"time"

	"github.com/pbmgames/pbm/infra/linksign"
)

// keySource is the service's link keys: Config.KeysLater, asked at each
// use (it keeps the keys once read, and reads again after a failure:
// lambdaenv.Env.Keys), or Config.Keys.
type keySource func() (*linksign.Keyring, error)

func newKeySource(keys *linksign.Keyring, later func() (*linksign.Keyring, error)) keySource {
	if later != nil {
		return later
	}
	return func() (*linksign.Keyring, error) { return keys, nil }
}

// Sign is linksign.Keyring.Sign with the keys.
func (k keySource) Sign(c linksign.Claims) (string, error) {
	keys, err := k()
	if err != nil {
		return "", err // the source says what failed ("link keys unavailable …")
	}
	return keys.Sign(c)
}

// Verify is linksign.Keyring.Verify with the keys. Keys that could not
// be read fail it with their error, which is no linksign error: the
// caller answers it as ours (CodeInternal), not as a bad token.
func (k keySource) Verify(token string, now time.Time, want linksign.Expect) (linksign.Claims, error) {
	keys, err := k()
	if err != nil {
		return linksign.Claims{}, err
	}
	return keys.Verify(token, now, want)
}
