package ct

import (
	"math/rand/v2"
	"testing"
)

// batches feeds d n synthetic measurements in batches of 1000: class 0
// ticks ~ base0 + noise, class 1 ~ base1 + noise, with rare large
// outliers in both.
func batches(d *Dudect, n int, base0, base1 float64, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 1))
	for done := 0; done < n; done += 1000 {
		cs := make([]byte, 1000)
		ts := make([]uint64, 1000)
		for i := range cs {
			c := byte(r.Uint32() & 1)
			x := base0
			if c == 1 {
				x = base1
			}
			x += 20 * r.NormFloat64()
			if r.IntN(1000) == 0 {
				x += 50000 // an interrupt
			}
			cs[i], ts[i] = c, uint64(max(x, 1))
		}
		d.Add(cs, ts)
	}
}

func TestDudectSameDistribution(t *testing.T) {
	d := NewDudect()
	batches(d, 101000, 1000, 1000, 3)
	if got := d.Measurements(); got != 100000 {
		t.Errorf("Measurements = %d, want 100000 (the first batch sets the crops)", got)
	}
	if v := d.Max(); v.Leaks() {
		t.Errorf("equal classes: max |t| = %.2f (%s), want at most %g", v.AbsT(), v.Test, Threshold)
	}
}

func TestDudectShift(t *testing.T) {
	// A 2-tick shift under 20 ticks of noise and rare 50000-tick
	// outliers: the outliers hide it from the uncropped test, a crop
	// finds it.
	d := NewDudect()
	batches(d, 101000, 1002, 1000, 4)
	v := d.Max()
	if !v.Leaks() || v.T <= 0 {
		t.Fatalf("shifted classes: max t = %.2f (%s), want above %g and positive (the fixed class is slower)", v.T, v.Test, Threshold)
	}
	if v.Test == "all" {
		t.Errorf("the largest |t| is the uncropped test's; the outliers should have hidden the shift there")
	}
}

func TestDudectVarianceOnly(t *testing.T) {
	// Same mean, different spread: the second-order test sees it.
	d := NewDudect()
	r := rand.New(rand.NewPCG(5, 1))
	for done := 0; done < 61000; done += 1000 {
		cs := make([]byte, 1000)
		ts := make([]uint64, 1000)
		for i := range cs {
			c := byte(r.Uint32() & 1)
			sd := 10.0
			if c == 1 {
				sd = 40
			}
			cs[i], ts[i] = c, uint64(1000+sd*r.NormFloat64())
		}
		d.Add(cs, ts)
	}
	if v := d.Max(); !v.Leaks() {
		t.Errorf("different spread: max |t| = %.2f (%s), want above %g", v.AbsT(), v.Test, Threshold)
	}
}

func TestWelch(t *testing.T) {
	var w welch
	for _, x := range []float64{1, 2, 3, 4} {
		w.push(x, 0)
	}
	for _, x := range []float64{3, 4, 5, 6} {
		w.push(x, 1)
	}
	// means 2.5 and 4.5, variances 5/3 each: t = -2 / sqrt(2·(5/3)/4).
	if got, want := w.t(), -2/0.9128709291752769; got < want-1e-9 || got > want+1e-9 {
		t.Errorf("t = %v, want %v", got, want)
	}
}
