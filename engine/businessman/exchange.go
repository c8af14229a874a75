package businessman

// The exchange board and its cards (B-13…B-18).

// cardOutcome is what playing a card would do: the new points and each
// seat's money (+ from the bank, − to the bank).
type cardOutcome struct {
	Points [NumColours]int
	Money  [MaxSeats]int64
}

// raise moves colour k up by r for seat (B-15, B-16): the player pays the
// rise on their shares; past 25 the marker stops and the others receive
// the overflow on theirs.
func (s *State) raise(o *cardOutcome, seat, k, r int) {
	old := o.Points[k]
	nv := min(MaxPoints, old+r)
	o.Points[k] = nv
	o.Money[seat] -= int64(nv-old) * PointValue * s.Players[seat].Shares[k]
	if over := old + r - MaxPoints; over > 0 {
		for i := range s.Players {
			if i != seat && s.active(i) {
				o.Money[i] += int64(over) * PointValue * s.Players[i].Shares[k]
			}
		}
	}
}

// lower moves colour k down by d for seat (B-15, B-17): the player is
// compensated for the fall of their own shares; below 1 the marker stops
// and the others pay the bank that many points a share.
func (s *State) lower(o *cardOutcome, seat, k, d int) {
	old := o.Points[k]
	nv := max(MinPoints, old-d)
	o.Points[k] = nv
	fall := int64(old-nv) * PointValue
	o.Money[seat] += fall * s.Players[seat].Shares[k]
	if old-d < MinPoints {
		for i := range s.Players {
			if i != seat && s.active(i) {
				o.Money[i] -= fall * s.Players[i].Shares[k]
			}
		}
	}
}

// halve is the «двойка» lowering colour k (B-18 at 1 point).
func (s *State) halve(o *cardOutcome, seat, k int) {
	old := o.Points[k]
	if old <= MinPoints {
		for i := range s.Players {
			if i != seat && s.active(i) {
				o.Money[i] -= HalvedAtOneFine * s.Players[i].Shares[k]
			}
		}
		return
	}
	s.lower(o, seat, k, old-old/2)
}

// cardEffect computes the play of card id on colour k by seat; dir is +2
// (double) or −2 (halve) for a «двойка» and 0 otherwise.
func (s *State) cardEffect(seat, id, k int, dir int64) cardOutcome {
	o := cardOutcome{Points: s.Points}
	c := &XCards[id]
	switch c.Kind {
	case XLarge:
		s.shift(&o, seat, k, c.Up, c.Down)
	case XTwo:
		if dir > 0 {
			s.raise(&o, seat, k, o.Points[k])
		} else {
			s.halve(&o, seat, k)
		}
	case XSmallUp:
		s.shift(&o, seat, k, c.Up, c.Up)
	case XSmallDown:
		s.lower(&o, seat, k, c.Down)
	}
	return o
}

// cardAffordable tells whether seat can pay its own part of the play in
// cash (the others' parts may become debts).
func (s *State) cardAffordable(seat, id, k int, dir int64) bool {
	o := s.cardEffect(seat, id, k, dir)
	return s.Players[seat].Cash+o.Money[seat] >= 0
}

// shift raises colour k by up points and lowers each other colour by down.
func (s *State) shift(o *cardOutcome, seat, k, up, down int) {
	s.raise(o, seat, k, up)
	for j := 0; j < NumColours; j++ {
		if j != k {
			s.lower(o, seat, j, down)
		}
	}
}
