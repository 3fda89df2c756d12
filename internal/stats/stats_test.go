package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}, {[]float64{2, 2, 9, 2}, 2},
	} {
		in := append([]float64(nil), c.xs...)
		if got := Median(c.xs); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", in, got, c.want)
		}
		for i := range in {
			if in[i] != c.xs[i] {
				t.Errorf("Median modified its input: %v, was %v", c.xs, in)
			}
		}
	}
	if !math.IsNaN(Median(nil)) {
		t.Error("Median(nil) is not NaN")
	}
}

// TestGeoMeanIntervalOrderIndependent shuffles the same ratios: the
// center and half-width must not change in any bit (the reports package
// collects the ratios of a knob effect from a map, in a different order
// every run).
func TestGeoMeanIntervalOrderIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ratios := make([]float64, 60)
	for i := range ratios {
		ratios[i] = 0.5 + 1.5*rng.Float64()
	}
	c0, h0 := GeoMeanInterval(ratios)
	if math.IsNaN(c0) || math.IsInf(h0, 0) || h0 <= 0 {
		t.Fatalf("GeoMeanInterval = %v ± %v, want a finite interval", c0, h0)
	}
	for i := range 100 {
		rng.Shuffle(len(ratios), func(a, b int) { ratios[a], ratios[b] = ratios[b], ratios[a] })
		if c, h := GeoMeanInterval(ratios); c != c0 || h != h0 {
			t.Fatalf("shuffle %d: GeoMeanInterval = %x ± %x, first order gave %x ± %x", i, c, h, c0, h0)
		}
	}
}
