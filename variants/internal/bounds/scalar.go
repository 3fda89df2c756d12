package bounds

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/ir"
)

// A ScalarValues is the contract of an integer parameter: the values a
// caller passes (a vector length k, a row stride).
type ScalarValues struct {
	Name   string
	Values []int64
}

// AnalyzeAll runs Analyze once per combination of the scalar parameters'
// values (each a constant in its run) and joins the results: the first
// run that is not proven, its finding naming the combination, else
// proven with the union of the runs' output bounds, lane by lane. It is
// Analyze if there are no scalars.
func AnalyzeAll(fn *ir.Function, data Data, params []Param, scalars []ScalarValues) Result {
	var joined *Result
	for _, combo := range combinations(scalars) {
		ps := append([]Param(nil), params...)
		var names []string
		for i, s := range scalars {
			ps = append(ps, Param{Name: s.Name, Scalar: true, Value: combo[i]})
			names = append(names, fmt.Sprintf("%s=%d", s.Name, combo[i]))
		}
		r := Analyze(fn, data, ps)
		if r.Status != Proven {
			if len(names) > 0 {
				f := *r.Finding
				f.What = "with " + strings.Join(names, ", ") + ": " + f.What
				r.Finding = &f
			}
			return r
		}
		if joined == nil {
			joined = &r
			continue
		}
		joined.Out = Interval{min(joined.Out.Lo, r.Out.Lo), max(joined.Out.Hi, r.Out.Hi)}
		for name, ls := range r.Lanes {
			for j, l := range ls {
				o := &joined.Lanes[name][j]
				o.Lo, o.Hi = min(o.Lo, l.Lo), max(o.Hi, l.Hi)
			}
		}
	}
	return *joined
}

// combinations returns every choice of one value per scalar (one empty
// choice if there are none).
func combinations(scalars []ScalarValues) [][]int64 {
	out := [][]int64{nil}
	for _, s := range scalars {
		var next [][]int64
		for _, c := range out {
			for _, v := range s.Values {
				next = append(next, append(append([]int64(nil), c...), v))
			}
		}
		out = next
	}
	return out
}
