package align

import "testing"

func TestEvictRunsWholeFootprint(t *testing.T) {
	if !EvictAvailable() {
		t.Skip("no generated footprint in this build")
	}
	// Every block adds 1 fourteen times across four accumulators.
	if got, want := Evict(), uint64(2048*14); got != want {
		t.Errorf("Evict() = %d, want %d (a block was skipped)", got, want)
	}
}
