package ct

import (
	"fmt"
	"math"
	"slices"
)

// Dudect's statistics (Reparaz, Balasch, Verbauwhede, "Dude, is my code
// constant time?", 2017): Welch's t-test between the timings of the two
// input classes, on all measurements, on those below each of a set of
// percentiles of the first batch (cropping the long tail that interrupts
// and cache misses unrelated to the input give), and a second-order test
// on the squared deviations from each class's mean. The largest |t| over
// the tests with enough measurements is the verdict.

const (
	// Threshold is the |t| above which the classes' timings differ: a
	// finding (dudect's "probably not constant time").
	Threshold = 4.5
	// percentiles is the number of crop percentiles, dudect's 100:
	// 1 - 0.5^(10·(i+1)/100), from 6.7% to 99.9%.
	percentiles = 100
	// enough is the number of measurements below which a test is not
	// considered (dudect's 10000).
	enough = 10000
)

// welch is an online Welch t-test of two classes.
type welch struct {
	n, mean, m2 [2]float64
}

func (w *welch) push(x float64, class int) {
	w.n[class]++
	d := x - w.mean[class]
	w.mean[class] += d / w.n[class]
	w.m2[class] += d * (x - w.mean[class])
}

func (w *welch) count() int { return int(w.n[0] + w.n[1]) }

// t returns Welch's t statistic (0 while a class has fewer than two
// measurements or both have no variance).
func (w *welch) t() float64 {
	if w.n[0] < 2 || w.n[1] < 2 {
		return 0
	}
	v0, v1 := w.m2[0]/(w.n[0]-1), w.m2[1]/(w.n[1]-1)
	se := math.Sqrt(v0/w.n[0] + v1/w.n[1])
	if se == 0 {
		return 0
	}
	return (w.mean[0] - w.mean[1]) / se
}

// A Dudect accumulates the tests of one target, batch by batch. The first
// batch sets the crop thresholds and is not tested.
type Dudect struct {
	thresholds []float64 // crop thresholds, increasing
	tests      []welch   // 0: all; 1..percentiles: cropped; last: second order
	skipped    int
}

// NewDudect returns an empty accumulator.
func NewDudect() *Dudect { return &Dudect{} }

// Add adds a batch of measurements: classes[i] (0 fixed, 1 random) took
// ticks[i].
func (d *Dudect) Add(classes []byte, ticks []uint64) {
	if d.thresholds == nil {
		d.setThresholds(ticks)
		d.skipped += len(ticks)
		return
	}
	second := &d.tests[len(d.tests)-1]
	for i, c := range classes {
		x, class := float64(ticks[i]), int(c)
		d.tests[0].push(x, class)
		for k, th := range d.thresholds {
			if x < th {
				d.tests[1+k].push(x, class)
			}
		}
		if d.tests[0].count() > enough {
			dev := x - d.tests[0].mean[class]
			second.push(dev*dev, class)
		}
	}
}

func (d *Dudect) setThresholds(ticks []uint64) {
	xs := make([]float64, len(ticks))
	for i, t := range ticks {
		xs[i] = float64(t)
	}
	slices.Sort(xs)
	d.thresholds = make([]float64, percentiles)
	for i := range d.thresholds {
		q := 1 - math.Pow(0.5, 10*float64(i+1)/percentiles)
		d.thresholds[i] = xs[min(len(xs)-1, int(q*float64(len(xs))))]
	}
	d.tests = make([]welch, 2+percentiles)
}

// Measurements returns the number of measurements in the tests (the first
// batch, which set the thresholds, left out).
func (d *Dudect) Measurements() int {
	if d.tests == nil {
		return 0
	}
	return d.tests[0].count()
}

// A Verdict is the largest |t| of a target's tests.
type Verdict struct {
	T    float64 // signed: positive when the fixed class is slower
	Test string  // which test: "all", "crop p=0.93", "2nd order"
	N    int     // measurements in that test
	// Means are the classes' mean ticks over all measurements (fixed,
	// random).
	Means [2]float64
}

// AbsT is |T|.
func (v Verdict) AbsT() float64 { return math.Abs(v.T) }

// Leaks reports whether |t| exceeds Threshold.
func (v Verdict) Leaks() bool { return v.AbsT() > Threshold }

// Max returns the test with the largest |t| among those with enough
// measurements (all tests if none has).
func (d *Dudect) Max() Verdict {
	var best Verdict
	if d.tests == nil {
		return best
	}
	best.Means = d.tests[0].mean
	have := false
	for i := range d.tests {
		w := &d.tests[i]
		if w.count() < enough && d.tests[0].count() >= enough {
			continue
		}
		if t := w.t(); !have || math.Abs(t) > best.AbsT() {
			best.T, best.Test, best.N, have = t, d.testName(i), w.count(), true
		}
	}
	return best
}

func (d *Dudect) testName(i int) string {
	switch {
	case i == 0:
		return "all"
	case i == len(d.tests)-1:
		return "2nd order"
	}
	return fmt.Sprintf("crop p=%.3g", 1-math.Pow(0.5, 10*float64(i)/percentiles))
}
