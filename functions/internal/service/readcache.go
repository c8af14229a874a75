package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/pbmgames/pbm/infra/store"
)

// A drain of a game's outbox composes one mail after another from the
// same moment of the game, and each read the recipient's player item
// twice (whether they want it, then their language and links) and the
// game's talk (its newest messages, then the seat's mark): four requests
// a mail, most of an action's (issue 28). A read cache scoped to one
// drain (WithReadCache) keeps the players read and the game's newest page
// of talk for the mails after: a player is read once a drain, and a game
// without talk costs one query a drain and no mark read. Outside a drain
// nothing is cached.

type readCacheKey struct{}

type readCache struct {
	mu      sync.Mutex
	players map[string]playerRead
	talk    map[string][]store.TalkMessage // the newest talkMailed of a game
}

type playerRead struct {
	p   store.Player
	err error // nil, or store.ErrNotFound
}

// WithReadCache gives ctx a read cache for what one drain reads more than
// once; a ctx that has one keeps it, so that what was read before the
// drain for it (Image: the recipients, with the game's marker) is kept.
func WithReadCache(ctx context.Context) context.Context {
	if cacheOf(ctx) != nil {
		return ctx
	}
	return context.WithValue(ctx, readCacheKey{}, &readCache{players: map[string]playerRead{}, talk: map[string][]store.TalkMessage{}})
}

func cacheOf(ctx context.Context) *readCache {
	c, _ := ctx.Value(readCacheKey{}).(*readCache)
	return c
}

// CachedPlayer reads the player of email from players, once a drain when
// ctx has a read cache; store.ErrNotFound as GetPlayer answers it.
func CachedPlayer(ctx context.Context, players store.PlayerStore, email string) (store.Player, error) {
	email = strings.ToLower(email)
	c := cacheOf(ctx)
	if c != nil {
		c.mu.Lock()
		r, ok := c.players[email]
		c.mu.Unlock()
		if ok {
			return r.p, r.err
		}
	}
	p, err := players.GetPlayer(ctx, email)
	if c != nil && (err == nil || errors.Is(err, store.ErrNotFound)) {
		c.mu.Lock()
		c.players[email] = playerRead{p, err}
		c.mu.Unlock()
	}
	return p, err
}

// primePlayers puts into ctx's read cache the players of emails as read
// in players (an address missing there has no player item).
func primePlayers(ctx context.Context, emails []string, players map[string]store.Player) {
	c := cacheOf(ctx)
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range emails {
		e = strings.ToLower(e)
		if p, ok := players[e]; ok {
			c.players[e] = playerRead{p: p}
		} else {
			c.players[e] = playerRead{err: fmt.Errorf("player %s: %w", e, store.ErrNotFound)}
		}
	}
}

// forgetPlayer drops what the cache holds of email: it was written.
func forgetPlayer(ctx context.Context, email string) {
	if c := cacheOf(ctx); c != nil {
		c.mu.Lock()
		delete(c.players, strings.ToLower(email))
		c.mu.Unlock()
	}
}

// newestTalk reads the newest talkMailed messages of game, once a drain
// when ctx has a read cache.
func (s *Service) newestTalk(ctx context.Context, game string) ([]store.TalkMessage, error) {
	c := cacheOf(ctx)
	if c != nil {
		c.mu.Lock()
		ms, ok := c.talk[game]
		c.mu.Unlock()
		if ok {
			return ms, nil
		}
	}
	ms, err := s.talk.TalkBefore(ctx, game, "", talkMailed)
	if err == nil && c != nil {
		c.mu.Lock()
		c.talk[game] = ms
		c.mu.Unlock()
	}
	return ms, err
}
