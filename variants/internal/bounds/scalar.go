package bounds

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/ir"
)

// A ScalarValues is the contract of an integer parameter: the values a
// caller passes (a vector length k, a row stride); or, if Sets, of a
// small array of Elem-byte constants (Decompose's constants of one γ2):
// the alternatives for its lanes' bounds, each lane a constant where its
// interval is one value.
type ScalarValues struct {
	Name   string
	Values []int64
	Elem   int
	Sets   [][]Interval
}

// choices is the number of alternatives of s.
func (s ScalarValues) choices() int {
	if s.Sets != nil {
		return len(s.Sets)
	}
	return len(s.Values)
}

// param is the parameter of choice i of s, and its name in a finding.
func (s ScalarValues) param(i int) (Param, string) {
	if s.Sets != nil {
		set := s.Sets[i]
		var vs []string
		for _, v := range set {
			if v.Lo == v.Hi {
				vs = append(vs, fmt.Sprint(v.Lo))
			} else {
				vs = append(vs, v.String())
			}
		}
		return Param{Name: s.Name, Elem: s.Elem, Lanes: len(set), LaneIn: set},
			fmt.Sprintf("%s={%s}", s.Name, strings.Join(vs, ", "))
	}
	return Param{Name: s.Name, Scalar: true, Value: s.Values[i]}, fmt.Sprintf("%s=%d", s.Name, s.Values[i])
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
			p, name := s.param(combo[i])
			ps = append(ps, p)
			names = append(names, name)
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
				if j >= len(joined.Lanes[name]) { // more lanes written (a wider encoding)
					joined.Lanes[name] = append(joined.Lanes[name], l)
					continue
				}
				o := &joined.Lanes[name][j]
				o.Lo, o.Hi = min(o.Lo, l.Lo), max(o.Hi, l.Hi)
			}
		}
	}
	return *joined
}

// combinations returns every choice of one alternative per scalar, as
// their indices (one empty choice if there are none).
func combinations(scalars []ScalarValues) [][]int {
	out := [][]int{nil}
	for _, s := range scalars {
		var next [][]int
		for _, c := range out {
			for v := range s.choices() {
				next = append(next, append(append([]int(nil), c...), v))
			}
		}
		out = next
	}
	return out
}
