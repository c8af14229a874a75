package boltstore

import (
	"context"
	"errors"

	"github.com/pbmgames/pbm/infra/store"
)

// bucketSent maps a game id to its sent marker: the version (8 bytes
// big-endian), then the body.
var bucketSent = []byte("sent")

// maxSentBytes bounds a marker: it is meant to stay small (a few mail
// ids), and DynamoDB bills it a write unit a started KB.
const maxSentBytes = 64 * 1024

// GetSent reads a game's sent marker.
func (s *Store) GetSent(ctx context.Context, gameID string) (store.Sent, error) {
	return getBlob(ctx, s, bucketSent, "sent marker of", gameID, func(ver int64, body []byte) store.Sent {
		return store.Sent{GameID: gameID, Version: ver, Body: body}
	})
}

// PutSent writes a game's sent marker as version prev+1 if the stored one
// is version prev (none for 0).
func (s *Store) PutSent(ctx context.Context, m store.Sent, prev int64) (int64, error) {
	return s.putBlob(ctx, bucketSent, "sent marker of", m.GameID, m.Body, prev, len(m.Body), maxSentBytes)
}

// GetSentPlayers reads the game's marker and the players of emails, one
// by one.
func (s *Store) GetSentPlayers(ctx context.Context, id string, emails []string) (store.Sent, map[string]store.Player, error) {
	m, err := s.GetSent(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		m = store.Sent{GameID: id}
	case err != nil:
		return store.Sent{}, nil, err
	}
	players := map[string]store.Player{}
	for _, e := range emails {
		p, err := s.GetPlayer(ctx, e)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return store.Sent{}, nil, err
		default:
			players[p.Email] = p
		}
	}
	return m, players, nil
}

// GetSents reads the markers of the games of ids, one by one.
func (s *Store) GetSents(ctx context.Context, ids []string) (map[string]store.Sent, error) {
	out := make(map[string]store.Sent, len(ids))
	for _, id := range ids {
		m, err := s.GetSent(ctx, id)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return nil, err
		default:
			out[id] = m
		}
	}
	return out, nil
}
