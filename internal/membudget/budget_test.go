package membudget

import "testing"

func TestBudgetGivenAndMeasured(t *testing.T) {
	g := Budget{Given: 1 << 20}
	b, from, ok := g.Bytes()
	if !ok || b > 1<<20 || (from != FromGiven && from != FromAddressSpace) || (from == FromGiven && b != 1<<20) {
		t.Fatalf("given 1 MiB: %d from %d, ok %v", b, from, ok)
	}
	var m Budget
	b1, from1, ok1 := m.Bytes()
	b2, _, ok2 := m.Bytes()
	if from1 != FromAvailable || b1 != b2 || ok1 != ok2 || !m.measured {
		t.Fatalf("measured budget: %d then %d (from %d), ok %v %v", b1, b2, from1, ok1, ok2)
	}
}
