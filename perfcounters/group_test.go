package perfcounters

import (
	"encoding/binary"
	"math"
	"testing"
	"time"
)

// groupBuf builds a PERF_FORMAT_GROUP|TIMES|ID read buffer.
func groupBuf(enabled, running uint64, vals ...uint64) []byte { // vals: value,id pairs
	words := append([]uint64{uint64(len(vals) / 2), enabled, running}, vals...)
	b := make([]byte, 8*len(words))
	for i, w := range words {
		binary.NativeEndian.PutUint64(b[8*i:], w)
	}
	return b
}

func TestParseGroupRead(t *testing.T) {
	r, err := parseGroupRead(groupBuf(1000, 250, 40, 7, 90, 9))
	if err != nil {
		t.Fatal(err)
	}
	if r.enabled != 1000 || r.running != 250 || r.values[7] != 40 || r.values[9] != 90 {
		t.Errorf("parseGroupRead = %+v, want enabled 1000 running 250 ids 7:40 9:90", r)
	}
	if _, err := parseGroupRead(groupBuf(1, 1, 5, 1)[:30]); err == nil {
		t.Error("parseGroupRead accepted a truncated buffer")
	}
	if _, err := parseGroupRead(make([]byte, 8)); err == nil {
		t.Error("parseGroupRead accepted an 8-byte buffer")
	}
}

func TestScale(t *testing.T) {
	tests := []struct {
		raw, en, run uint64
		count        float64
		mux, counted bool
	}{
		{100, 1000, 1000, 100, false, true},
		{100, 1000, 250, 400, true, true},
		{0, 1000, 1000, 0, false, true}, // a real zero
		{0, 1000, 0, math.NaN(), true, false},
		{0, 0, 0, math.NaN(), false, false},
	}
	for _, tt := range tests {
		v := scale("x", tt.raw, tt.en, tt.run)
		same := v.Count == tt.count || math.IsNaN(v.Count) && math.IsNaN(tt.count)
		if !same || v.Multiplexed != tt.mux || v.Counted != tt.counted || v.Raw != tt.raw ||
			v.Enabled != time.Duration(tt.en) || v.Running != time.Duration(tt.run) {
			t.Errorf("scale(raw %d, enabled %d, running %d) = %+v, want count %v multiplexed %v counted %v",
				tt.raw, tt.en, tt.run, v, tt.count, tt.mux, tt.counted)
		}
	}
}

// TestValuesPerGroup checks that each counter group is scaled by its own
// times, relative to the Reset baseline, and results come in spec order.
func TestValuesPerGroup(t *testing.T) {
	g := &Group{specs: []Spec{{Name: "a"}, {Name: "b"}, {Name: "c"}}}
	main := &counterGroup{fds: []int{3, 4}, ids: []uint64{10, 11}, spec: []int{0, 2}, baseEn: 100, baseRun: 100}
	own := &counterGroup{fds: []int{5}, ids: []uint64{12}, spec: []int{1}}
	byIdx := map[int]Value{}
	for _, c := range []struct {
		cg  *counterGroup
		buf []byte
	}{
		{main, groupBuf(1100, 1100, 50, 10, 70, 11)},
		{own, groupBuf(1000, 500, 30, 12)},
	} {
		r, err := parseGroupRead(c.buf)
		if err != nil {
			t.Fatal(err)
		}
		vs, err := g.values(c.cg, r)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range vs {
			byIdx[c.cg.spec[i]] = v
		}
	}
	got := g.order(byIdx)
	want := []struct {
		name  string
		count float64
		mux   bool
		en    time.Duration
	}{{"a", 50, false, 1000}, {"b", 60, true, 1000}, {"c", 70, false, 1000}}
	for i, w := range want {
		v := got[i]
		if v.Name != w.name || v.Count != w.count || v.Multiplexed != w.mux || v.Enabled != w.en {
			t.Errorf("value %d = %+v, want %s count %v multiplexed %v enabled %v", i, v, w.name, w.count, w.mux, w.en)
		}
	}
	bad, _ := parseGroupRead(groupBuf(1, 1, 5, 99))
	if _, err := g.values(own, bad); err == nil {
		t.Error("values accepted a read without the event's id")
	}
}
