package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// maxPageBytes is the most a page may weigh: the document and every
// sub-resource it loads, as received (SPEC §6).
const maxPageBytes = 60 << 10

// TestWholeGameByClicking: Chromium plays a whole 3-seat game of each
// game by clicking, from the mails, to the game-over page with its chart.
func TestWholeGameByClicking(t *testing.T) {
	eachKind(t, func(t *testing.T, g *played) {
		t.Logf("%s game %s: %d moves; %d visits from mails, %d decisions clicked (%d not the default, %d of them in a folded group), %d pages loaded, in %v",
			g.kind, g.id, g.moves, g.visits, g.presses, g.others, g.folded, len(g.pages), g.took.Round(time.Millisecond))
		for _, s := range g.shots {
			t.Logf("screenshot: %s", s)
		}
	})
}

// TestPagesStayInService: no page of the game asks for anything outside
// the service (its origin, and data: URLs), and none weighs more than
// maxPageBytes.
func TestPagesStayInService(t *testing.T) {
	eachKind(t, pagesStayInService)
}

func pagesStayInService(t *testing.T, g *played) {
	outside := map[string]bool{}
	for _, p := range g.pages {
		for _, u := range p.Outside {
			if !outside[u] {
				outside[u] = true
				t.Errorf("the %s page %s requests %s, outside the service", p.Kind, p.Path, u)
			}
		}
		if p.Bytes > maxPageBytes {
			t.Errorf("the %s page %s weighs %s (%d requests), over %s", p.Kind, p.Path, kb(p.Bytes), p.Requests, kb(maxPageBytes))
		}
	}
	for _, u := range g.requests {
		if !outside[u] && !inside(g.origin, u) {
			outside[u] = true
			t.Errorf("the tab requested %s, outside the service, between pages", u)
		}
	}
	var total int64
	for _, p := range g.pages {
		total += p.Bytes
	}
	t.Logf("%d pages loaded, %s on average; the heaviest of each kind:", len(g.pages), kb(total/int64(max(1, len(g.pages)))))
	for _, p := range heaviest(g.pages) {
		t.Logf("  %-12s %9s  %d request(s)  %s", p.Kind, kb(p.Bytes), p.Requests, p.Path)
	}
}

// TestAccessibility: axe-core finds no moderate, serious or critical
// violation of WCAG 2 A/AA on any kind of page of the game (issue 27:
// moderate ones fail too).
func TestAccessibility(t *testing.T) {
	eachKind(t, accessibility)
}

func accessibility(t *testing.T, g *played) {
	for _, r := range g.axe {
		grave := r.grave()
		var minor []string
		for _, v := range r.Violations {
			if v.Impact != "moderate" && v.Impact != "serious" && v.Impact != "critical" {
				minor = append(minor, v.ID+" ("+v.Impact+")")
			}
		}
		t.Logf("%-34s %d rules, %d moderate or worse, minor: %s", r.Kind+" page:", r.Rules, len(grave), strings.Join(minor, ", "))
		for _, v := range grave {
			t.Errorf("the %s page %s: %s", r.Kind, r.Path, v)
		}
	}
}

func kb(n int64) string { return fmt.Sprintf("%.1f KB", float64(n)/1024) }
