package leagues

import "context"

// Current reads a league's latest season, nil before the first.
func (s *Service) Current(ctx context.Context, id string) (*Season, error) {
	season, _, _, err := s.current(ctx, id)
	return season, err
}

// History reads every season of a league, the first first.
func (s *Service) History(ctx context.Context, id string) ([]*Season, error) {
	last, err := s.Current(ctx, id)
	if err != nil || last == nil {
		return nil, err
	}
	out := make([]*Season, 0, last.N)
	for n := 1; n < last.N; n++ {
		season, _, err := s.Season(ctx, id, n)
		if err != nil {
			return nil, err
		}
		out = append(out, season)
	}
	return append(out, last), nil
}
