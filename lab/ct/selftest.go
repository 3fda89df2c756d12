package ct

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// SelftestN is the default number of measurements per planted leak: each
// leak's |t| is far above Threshold well before it (tens to hundreds).
const SelftestN = 20000

// A SelftestResult is one fixture's outcome in both checks.
type SelftestResult struct {
	Fixture Fixture
	// Static are the kinds of the fixture function's static findings and
	// their count; StaticOK whether they include Fixture.Kind (none for
	// the control).
	Static   []string
	Findings int
	StaticOK bool
	// Dynamic is the dynamic check's result; DynamicOK whether it flagged
	// the leak (the control's result is reported, not required).
	Dynamic   *Result
	DynamicOK bool
}

// OK reports whether the fixture passed what the self-test requires.
func (r *SelftestResult) OK() bool {
	return r.StaticOK && (r.Fixture.Kind == "" || r.DynamicOK)
}

// fixtureFile returns the status file of the planted leaks.
func fixtureFile() (*File, error) {
	for _, f := range Files() {
		if f.Fixture {
			return f, nil
		}
	}
	return nil, errors.New("no status of the planted leaks (lab/ct/zstatic_leaks.go): run go generate ./lab/ct/leaks")
}

// SelftestStatic checks each fixture's static findings.
func SelftestStatic() ([]*SelftestResult, error) {
	f, err := fixtureFile()
	if err != nil {
		return nil, err
	}
	var out []*SelftestResult
	for _, fx := range Fixtures {
		r := &SelftestResult{Fixture: fx}
		i := slices.IndexFunc(f.Funcs, func(fn Func) bool { return fn.Name == fx.Symbol })
		if i < 0 {
			return nil, fmt.Errorf("%s: no fixture function %s", f.Asm, fx.Symbol)
		}
		for _, x := range f.Funcs[i].Findings {
			r.Findings++
			if !slices.Contains(r.Static, x.Kind) {
				r.Static = append(r.Static, x.Kind)
			}
		}
		slices.Sort(r.Static)
		if fx.Kind == "" {
			r.StaticOK = r.Findings == 0
		} else {
			r.StaticOK = slices.Contains(r.Static, fx.Kind)
		}
		out = append(out, r)
	}
	return out, nil
}

// Selftest runs both checks on the fixtures, n measurements each in the
// dynamic one.
func Selftest(ctx context.Context, cfg Config, n int) ([]*SelftestResult, error) {
	out, err := SelftestStatic()
	if err != nil {
		return nil, err
	}
	var targets []Target
	for _, fx := range Fixtures {
		targets = append(targets, Target{Name: "leak|" + fx.Name, Kernel: "leak." + fx.Name, Classes: fx.Classes, N: n})
	}
	for i, r := range Measure(ctx, cfg, targets, nil) {
		out[i].Dynamic = r
		out[i].DynamicOK = r.Err == nil && r.Verdict.Leaks()
	}
	return out, ctx.Err()
}
