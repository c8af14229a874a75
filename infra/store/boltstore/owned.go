package boltstore

import "bytes"

// eachOwned walks the entries of one id (a league's items, a game's talk)
// in a bucket keyed by leagueKey: from k, v on, moving by step, while the
// keys start with p (leaguePrefix(id), or a longer leagueKey). It calls
// each with an entry's own key and value until each returns false or an
// error; an entry of another id that extends this one is passed over.
func eachOwned(id string, p, k, v []byte, step func() ([]byte, []byte), each func(key string, v []byte) (bool, error)) error {
	for ; k != nil && bytes.HasPrefix(k, p); k, v = step() {
		owner, key, err := splitLeagueKey(k)
		if err != nil {
			return err
		}
		if owner != id {
			continue // another id extends this one's: not ours
		}
		more, err := each(key, v)
		if err != nil || !more {
			return err
		}
	}
	return nil
}
