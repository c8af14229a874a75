package engine

import (
	"errors"
	"testing"
)

func TestCheckOrders(t *testing.T) {
	specs := []OrderSpec{
		{Name: "roll", Kind: OrderFlag, Max: 1, Sensible: 1},
		{Name: "keep_cash", Kind: OrderAmount, Min: 0, Max: 1000, Sensible: 0},
	}
	if got := SensibleOrders(specs); len(got) != 2 || got["roll"] != 1 || !got.Has("keep_cash") || got.On("keep_cash") {
		t.Fatalf("SensibleOrders = %v", got)
	}
	for _, c := range []struct {
		o  Orders
		ok bool
	}{
		{nil, true},
		{Orders{"roll": 1, "keep_cash": 1000}, true},
		{Orders{"roll": 0, "keep_cash": 0}, true},
		{Orders{"roll": 2}, false},
		{Orders{"roll": -1}, false},
		{Orders{"keep_cash": 1001}, false},
		{Orders{"keep_cash": -5}, false},
		{Orders{"fly": 1}, false},
	} {
		err := CheckOrders(specs, c.o)
		if (err == nil) != c.ok || err != nil && !errors.Is(err, ErrBadOptions) {
			t.Errorf("CheckOrders(%v) = %v", c.o, err)
		}
	}
	if got := SpendCap(Orders{}, 900); got != 900 {
		t.Errorf("no spend_pct: cap %d", got)
	}
	if got := SpendCap(Orders{OrderSpendPct: 20}, 900); got != 180 {
		t.Errorf("spend_pct 20: cap %d", got)
	}
	legal := []Choice{{Action: Action{Type: "roll"}}, {Action: Action{Type: "bid"}, Min: 10, Max: 50, Step: 1}}
	if _, ok := Checked(legal, Action{Type: "bid", Amount: 60}, true); ok {
		t.Error("Checked passed an action the legal list does not admit")
	}
	if a, ok := Checked(legal, Action{Type: "bid", Amount: 30}, true); !ok || a.Amount != 30 {
		t.Error("Checked refused a legal action")
	}
}
