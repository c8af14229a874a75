package leaguerules

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// TableSizes splits members into tables as close to size as the game's seat
// limits allow. Among the table counts whose sizes (which differ by at most
// one) all lie in [minSeats, maxSeats], it takes the one whose largest
// distance from size is least, then whose total distance is least, then
// the one with more tables (smaller tables finish sooner by mail). Larger
// tables come first.
func TableSizes(members, size, minSeats, maxSeats int) ([]int, error) {
	if minSeats < 2 || maxSeats < minSeats || size < minSeats || size > maxSeats {
		return nil, fmt.Errorf("table size %d outside the game's %d to %d seats", size, minSeats, maxSeats)
	}
	if members < minSeats {
		return nil, fmt.Errorf("%d members cannot fill a table of at least %d", members, minSeats)
	}
	var best []int
	bestMax, bestSum := -1, -1
	for n := 1; n <= members/minSeats; n++ {
		small, extra := members/n, members%n
		if small < minSeats || small+min(extra, 1) > maxSeats {
			continue
		}
		sizes := make([]int, n)
		worst, total := 0, 0
		for i := range sizes {
			sizes[i] = small
			if i < extra {
				sizes[i]++
			}
			d := max(sizes[i]-size, size-sizes[i])
			worst, total = max(worst, d), total+d
		}
		if best == nil || worst < bestMax || worst == bestMax && total <= bestSum {
			best, bestMax, bestSum = sizes, worst, total
		}
	}
	if best == nil {
		return nil, fmt.Errorf("%d members cannot be seated at tables of %d to %d", members, minSeats, maxSeats)
	}
	return best, nil
}

// Round is one round's seating: each table lists member indices in seat
// (turn) order.
type Round [][]int

// restarts is how many random starting seatings each round's local search
// tries; the best one is kept. Enough for leagues of a few dozen members.
const restarts = 24

// annealSteps is the number of swaps tried per member and round when the
// whole season is improved.
const annealSteps = 3000

// Seat plans a season: every round seats members 0..members-1 at tables
// of the given sizes (see TableSizes), so that over the season each pair
// shares a table as evenly as it can, members take turns at the smaller
// tables, and each member sits in each seat position as evenly as it can.
// Each round is first chosen greedily given the rounds before it, by local
// search from several random seatings; then the whole season is improved
// by simulated annealing (see anneal), and last the seats at each table
// are ordered (see seatOrder). It makes a few such plans and keeps the
// cheapest. The same seed gives the same season.
func Seat(members, rounds int, sizes []int, seed uint64) ([]Round, error) {
	total := 0
	for _, s := range sizes {
		if s < 1 {
			return nil, fmt.Errorf("table size %d in %v", s, sizes)
		}
		total += s
	}
	if total != members || members == 0 {
		return nil, fmt.Errorf("tables of %v seat %d, not the %d members", sizes, total, members)
	}
	if rounds < 1 {
		return nil, fmt.Errorf("a season needs at least one round, got %d", rounds)
	}
	var best []Round
	var bestCost [2]int
	for try := range tries {
		season, cost := plan(members, rounds, sizes, seed, uint64(try))
		if best == nil || cost[0] < bestCost[0] || cost[0] == bestCost[0] && cost[1] < bestCost[1] {
			best, bestCost = season, cost
		}
	}
	return best, nil
}

// tries is how many independent plans Seat makes; it keeps the cheapest.
// Annealing lands in different places from different starts (for 21 × 6,
// from 12 to 24 pairs that never meet), so a few tries pay.
const tries = 4

// plan makes one season plan and returns it with its cost: the meeting and
// small-table cost, then the seat cost.
func plan(members, rounds int, sizes []int, seed, try uint64) ([]Round, [2]int) {
	maxSize := slices.Max(sizes)
	p := planner{
		rng:     newRNG(seed, try),
		sizes:   sizes,
		maxSize: maxSize,
		met:     make([][]int, members),
		small:   make([]int, members),
		pos:     make([][]int, members),
	}
	for m := range members {
		p.met[m] = make([]int, members)
		p.pos[m] = make([]int, maxSize)
	}
	season := make([]Round, rounds)
	for r := range season {
		season[r] = p.round()
	}
	pairs, smallSeats := members*(members-1)/2, 0
	meetings := 0
	for _, s := range sizes {
		meetings += s * (s - 1) / 2
		if s < maxSize {
			smallSeats += s
		}
	}
	p.meanMeet = (2*spreadScale*meetings*rounds + pairs) / (2 * pairs)
	p.meanSmall = (2*spreadScale*smallSeats*rounds + members) / (2 * members)
	p.anneal(season, annealSteps*members*rounds)
	p.seatOrder(season)
	return season, p.seasonCost(season)
}

// seasonCost is the cost of a planned season, from scratch: the weighted meeting and
// small-table costs, and the seat cost.
func (p *planner) seasonCost(season []Round) [2]int {
	members := len(p.met)
	met := make([][]int, members)
	for m := range met {
		met[m] = make([]int, members)
	}
	small := make([]int, members)
	seats := make([][]int, members)
	for m := range seats {
		seats[m] = make([]int, p.maxSize)
	}
	for _, round := range season {
		for t, table := range round {
			for i, a := range table {
				seats[a][i]++
				if p.isSmall(t) {
					small[a]++
				}
				for _, b := range table[i+1:] {
					met[min(a, b)][max(a, b)]++
				}
			}
		}
	}
	var c [2]int
	for a := range members {
		for b := a + 1; b < members; b++ {
			c[0] += meetWeight * p.meetCost(met[a][b])
		}
		c[0] += p.smallCost(small[a])
		for seat, n := range seats[a] {
			c[1] += seatCost(seat, n)
		}
	}
	return c
}

// meetWeight makes a repeated meeting cost more than a turn at a small
// table: meeting evenly matters most.
const meetWeight = 4

type planner struct {
	rng     *rand.Rand
	sizes   []int
	maxSize int
	met     [][]int // met[a][b]: tables a and b have shared so far
	small   []int   // small[m]: rounds m sat at a table smaller than the largest
	pos     [][]int // pos[m][p]: rounds m sat in seat p
	// meanMeet and meanSmall are the season's mean meetings of a pair and
	// small-table turns of a member, times spreadScale, rounded.
	meanMeet, meanSmall int
}

func (p *planner) isSmall(table int) bool { return p.sizes[table] < p.maxSize }

// round picks the next round and records it.
func (p *planner) round() Round {
	var best Round
	bestCost := 0
	for range restarts {
		tables := p.randomTables()
		p.improve(tables)
		if c := p.cost(tables); best == nil || c < bestCost {
			best, bestCost = tables, c
		}
	}
	for t, table := range best {
		for _, m := range table {
			if p.isSmall(t) {
				p.small[m]++
			}
			for _, o := range table {
				if o != m {
					p.met[m][o]++
				}
			}
		}
	}
	return best
}

// anneal improves the whole season by swapping two members of different
// tables in one round, by simulated annealing on the spread of the pair
// meetings (weighted) and of the small-table turns (see spreadCost); it
// keeps the best season seen.
func (p *planner) anneal(season []Round, steps int) {
	best := cloneSeason(season)
	cost, bestCost := 0, 0
	if len(p.sizes) < 2 {
		return
	}
	for it := range steps {
		r := p.rng.IntN(len(season))
		i := p.rng.IntN(len(p.sizes))
		j := p.rng.IntN(len(p.sizes) - 1)
		if j >= i {
			j++
		}
		ti, tj := season[r][i], season[r][j]
		ai, bj := p.rng.IntN(len(ti)), p.rng.IntN(len(tj))
		a, b := ti[ai], tj[bj]
		delta := p.tradeDelta(ti, a, b) + p.tradeDelta(tj, b, a)
		smallMove := p.isSmall(i) != p.isSmall(j)
		in, out := b, a // who moves into the small table, if one is small
		if p.isSmall(j) {
			in, out = a, b
		}
		if smallMove {
			delta += p.smallCost(p.small[in]+1) - p.smallCost(p.small[in]) +
				p.smallCost(p.small[out]-1) - p.smallCost(p.small[out])
		}
		// The temperature falls linearly to nothing over the steps.
		temp := meetWeight * spreadScale * spreadScale * spreadScale * spreadScale * 8 * float64(steps-it) / float64(steps)
		if delta > 0 && (temp == 0 || p.rng.Float64() >= math.Exp(-float64(delta)/temp)) {
			continue
		}
		p.trade(ti, a, b)
		p.trade(tj, b, a)
		if smallMove {
			p.small[out]--
			p.small[in]++
		}
		ti[ai], tj[bj] = b, a
		cost += delta
		if cost < bestCost {
			bestCost = cost
			best = cloneSeason(season)
		}
	}
	copy(season, best)
}

// tradeDelta is the change in the weighted meeting cost when member out
// leaves table, of the same round, for member in, who sits elsewhere.
func (p *planner) tradeDelta(table []int, out, in int) int {
	delta := 0
	for _, x := range table {
		if x != out {
			delta += meetWeight * (p.meetCost(p.met[out][x]-1) - p.meetCost(p.met[out][x]) +
				p.meetCost(p.met[in][x]+1) - p.meetCost(p.met[in][x]))
		}
	}
	return delta
}

// trade records in the meetings that member out left table for member in.
func (p *planner) trade(table []int, out, in int) {
	for _, x := range table {
		if x != out {
			p.met[out][x]--
			p.met[x][out]--
			p.met[in][x]++
			p.met[x][in]++
		}
	}
}

// seatOrder arranges every table's seats so that each member sits in each
// seat as evenly as it can: a greedy pass round by round, then exchanges
// of two seats at one table while one lowers the sum of seatCost.
func (p *planner) seatOrder(season []Round) {
	for _, round := range season {
		for _, table := range round {
			p.order(table)
			for seat, m := range table {
				p.pos[m][seat]++
			}
		}
	}
	for improved := true; improved; {
		improved = false
		for _, round := range season {
			for _, table := range round {
				for x := range table {
					for y := x + 1; y < len(table); y++ {
						a, b := table[x], table[y]
						// a leaves x for y, b leaves y for x.
						delta := seatCost(y, p.pos[a][y]+1) - seatCost(y, p.pos[a][y]) +
							seatCost(x, p.pos[a][x]-1) - seatCost(x, p.pos[a][x]) +
							seatCost(x, p.pos[b][x]+1) - seatCost(x, p.pos[b][x]) +
							seatCost(y, p.pos[b][y]-1) - seatCost(y, p.pos[b][y])
						if delta < 0 {
							p.pos[a][x]--
							p.pos[a][y]++
							p.pos[b][y]--
							p.pos[b][x]++
							table[x], table[y] = b, a
							improved = true
						}
					}
				}
			}
		}
	}
}

// spreadScale sets the resolution of the target mean in spreadCost.
const spreadScale = 4

// spreadCost is the cost of a count n against a mean held as
// spreadScale·mean: the fourth power of the distance, so that a pair that
// never meets or meets once too often costs far more than a few pairs a
// little off (a sum of squares would rate those alike: it is the variance).
func spreadCost(n, scaledMean int) int {
	d := spreadScale*n - scaledMean
	return d * d * d * d
}

func (p *planner) meetCost(n int) int  { return spreadCost(n, p.meanMeet) }
func (p *planner) smallCost(n int) int { return spreadCost(n, p.meanSmall) }

// seatCost is the cost of sitting n times in seat: the square, so sittings
// spread evenly, weighted thrice for the first seat, which moves first.
func seatCost(seat, n int) int {
	if seat == 0 {
		return 3 * n * n
	}
	return n * n
}

func cloneSeason(season []Round) []Round {
	out := make([]Round, len(season))
	for r, round := range season {
		out[r] = make(Round, len(round))
		for t, table := range round {
			out[r][t] = slices.Clone(table)
		}
	}
	return out
}

func (p *planner) randomTables() Round {
	perm := p.rng.Perm(len(p.met))
	tables := make(Round, len(p.sizes))
	for t, s := range p.sizes {
		tables[t], perm = perm[:s:s], perm[s:]
	}
	return tables
}

// cost of a round given the rounds before: the earlier meetings of every
// pair it seats together, and the earlier small-table turns of those it
// seats at small tables.
func (p *planner) cost(tables Round) int {
	c := 0
	for t, table := range tables {
		for i, a := range table {
			for _, b := range table[i+1:] {
				c += meetWeight * p.met[a][b]
			}
			if p.isSmall(t) {
				c += p.small[a]
			}
		}
	}
	return c
}

// joinCost is what member m adds to table t without member out.
func (p *planner) joinCost(m, t, out int, tables Round) int {
	c := 0
	for _, x := range tables[t] {
		if x != out {
			c += meetWeight * p.met[m][x]
		}
	}
	if p.isSmall(t) {
		c += p.small[m]
	}
	return c
}

// improve swaps members between tables while a swap lowers the cost,
// taking the best swap each time.
func (p *planner) improve(tables Round) {
	for {
		bestDelta, bi, bj, ba, bb := 0, 0, 0, 0, 0
		for i := range tables {
			for j := i + 1; j < len(tables); j++ {
				for ai, a := range tables[i] {
					for bj2, b := range tables[j] {
						delta := p.joinCost(b, i, a, tables) + p.joinCost(a, j, b, tables) -
							p.joinCost(a, i, a, tables) - p.joinCost(b, j, b, tables)
						if delta < bestDelta {
							bestDelta, bi, bj, ba, bb = delta, i, j, ai, bj2
						}
					}
				}
			}
		}
		if bestDelta == 0 {
			return
		}
		tables[bi][ba], tables[bj][bb] = tables[bj][bb], tables[bi][ba]
	}
}

// order arranges a table's seats so that members sit where they have sat
// least: pairwise exchanges of seats while one lowers the sum of earlier
// sittings.
func (p *planner) order(table []int) {
	for improved := true; improved; {
		improved = false
		for x := range table {
			for y := x + 1; y < len(table); y++ {
				a, b := table[x], table[y]
				if p.pos[a][y]+p.pos[b][x] < p.pos[a][x]+p.pos[b][y] {
					table[x], table[y] = b, a
					improved = true
				}
			}
		}
	}
}

// newRNG is the season's own generator: the same seed, the same season.
func newRNG(seed, try uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x6c6561677565+try)) // "league"
}
