package harness

import "testing"

func TestEstimateClock(t *testing.T) {
	var rs []float64
	for i := 0; i < 100; i++ {
		rs = append(rs, 1.2+0.001*float64(i)) // core/TSC ratios 1.200 .. 1.299
	}
	c, ok := estimateClock(rs, 2.5e9)
	if !ok || c.Samples != 100 {
		t.Fatalf("estimateClock: %+v, %v", c, ok)
	}
	if c.GHz < 3.12 || c.GHz > 3.13 || c.Lo > c.GHz || c.Hi < c.GHz || c.Lo < 3.0 || c.Hi > 3.25 {
		t.Errorf("estimate %+v, want a median of 3.12-3.13 GHz between its 5th and 95th percentiles", c)
	}
	if _, ok := estimateClock(nil, 2.5e9); ok {
		t.Error("estimate from no samples")
	}
	if _, ok := estimateClock(rs, 0); ok {
		t.Error("estimate without a TSC frequency")
	}
}

func TestClockProbeAbsent(t *testing.T) {
	var p *clockProbe
	s := p.around(func() Sample { return Sample{NsPerOp: 5} })
	if s.CoreRatio != 0 || s.NsPerOp != 5 {
		t.Errorf("sample %+v without a probe, want it unchanged with no core ratio", s)
	}
}
