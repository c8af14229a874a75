package service

import (
	"context"
	"fmt"
)

// FullLog reads the whole log: the chunks, then the recent entries.
func (s *Service) FullLog(ctx context.Context, rec *Record) ([]Entry, error) {
	chunks, err := s.store.Chunks(ctx, rec.ID)
	if err != nil {
		return nil, fmt.Errorf("log of game %s: %w", rec.ID, err)
	}
	var out []Entry
	for _, c := range chunks {
		if c.Seq >= rec.Chunks {
			break // written by a commit that then lost its race
		}
		var part []Entry
		if err := decode(c.Body, &part); err != nil {
			return nil, fmt.Errorf("log of game %s chunk %d: %w", rec.ID, c.Seq, err)
		}
		out = append(out, part...)
	}
	recent, err := rec.Recent()
	if err != nil {
		return nil, err
	}
	out = append(out, recent...)
	if len(out) != rec.Moves {
		return nil, fmt.Errorf("log of game %s: %d entries, want %d", rec.ID, len(out), rec.Moves)
	}
	return out, nil
}
