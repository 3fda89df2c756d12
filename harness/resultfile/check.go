package resultfile

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// Ranges a result line's values must lie in. They are wide (a sweep's
// values are far inside them) but exclude what no measurement gives:
// zero, negative, subnormal and astronomically large times.
const (
	MaxIters   = 1_000_000_000_000 // iterations per sample
	MinNsPerOp = 1e-6              // a femtosecond
	MaxNsPerOp = 1e14              // about a day
	MinCycles  = 1e-6              // cycles per op or per unit
	MaxCycles  = 1e15
	MaxCount   = 1e18    // any other per-op count (events, B/op, allocs/op)
	MaxSize    = 1 << 30 // /size=N in bytes
)

// EstCoreCyclesUnit is the unit of estimated core cycles per op (TSC
// ticks times the core/TSC ratio of a dependent-add chain around the
// sample): an estimate, kept apart from PMU cycles.
const EstCoreCyclesUnit = "est-core-cycles/op"

// CheckResult returns an error saying what was expected unless res is a
// result a report can use: iterations between 1 and MaxIters; a ns/op
// value; every value finite; ns/op between MinNsPerOp and MaxNsPerOp;
// cycle values (tsc-cycles/..., est-core-cycles/op) between MinCycles and
// MaxCycles; other per-op counts between 0 and MaxCount; and a
// /size=N part, where N is an integer, between 1 and MaxSize.
func CheckResult(res *benchfmt.Result) error {
	if err := checkValues(res); err != nil {
		return err
	}
	return checkSize(res.Name)
}

// checkValues checks a result's iterations and values.
func checkValues(res *benchfmt.Result) error {
	if res.Iters < 1 || res.Iters > MaxIters {
		return fmt.Errorf("expected an iteration count between 1 and %d, got %d", int64(MaxIters), res.Iters)
	}
	ns := false
	for _, v := range res.Values {
		if err := CheckValue(v); err != nil {
			return err
		}
		ns = ns || v.Unit == "sec/op" || v.Unit == "ns/op" // as read (tidied) or written
	}
	if !ns {
		return fmt.Errorf("expected a ns/op value")
	}
	return nil
}

// CheckValue checks one value against the range of the unit the file
// wrote it in (benchfmt tidies ns/op to sec/op, except a 0): see
// CheckResult.
func CheckValue(v benchfmt.Value) error {
	value, unit := v.Value, v.Unit
	if v.OrigUnit != "" {
		value, unit = v.OrigValue, v.OrigUnit
	}
	if math.IsNaN(value) || math.IsInf(value, 0) {
		return fmt.Errorf("expected a finite %s value, got %v", unit, value)
	}
	lo, hi, ok := valueRange(unit)
	if ok && !(value >= lo && value <= hi) {
		return fmt.Errorf("expected %s between %g and %g, got %v", unit, lo, hi, value)
	}
	return nil
}

// DropInvalid returns vals without the values after the first (ns/op,
// which a writer checks with CheckResult) that CheckValue refuses, such
// as a NaN counter or a zero cycle count: writers never write a line the
// readers would skip.
func DropInvalid(vals []benchfmt.Value) []benchfmt.Value {
	if len(vals) == 0 {
		return vals
	}
	out := vals[:1]
	for _, v := range vals[1:] {
		if CheckValue(v) == nil {
			out = append(out, v)
		}
	}
	return out
}

// valueRange returns the range of a unit's values as a file writes it;
// ok is false for units that are only required to be finite (a foreign
// file's own metrics).
func valueRange(unit string) (lo, hi float64, ok bool) {
	switch {
	case unit == "ns/op":
		return MinNsPerOp, MaxNsPerOp, true
	case unit == "sec/op":
		return MinNsPerOp / 1e9, MaxNsPerOp / 1e9, true
	case strings.HasPrefix(unit, "tsc-cycles/") || unit == EstCoreCyclesUnit:
		return MinCycles, MaxCycles, true
	case strings.HasSuffix(unit, "/op"):
		return 0, MaxCount, true
	}
	return 0, 0, false
}

// A sizeCache remembers the names checkSize passed, up to maxSizeCache
// distinct names (then it starts over).
type sizeCache map[string]bool

const maxSizeCache = 4096

// check returns checkSize(name), from the cache when name passed before.
func (c sizeCache) check(name benchfmt.Name) error {
	if c[string(name)] {
		return nil
	}
	if err := checkSize(name); err != nil {
		return err
	}
	if len(c) >= maxSizeCache {
		clear(c)
	}
	c[string(name)] = true
	return nil
}

// checkSize checks the name's size=N parts whose N is an integer (a
// foreign size=1kB is part of a name, not a size). benchfmt reads a
// trailing "size=-1" as "size=" and a GOMAXPROCS suffix "-1".
func checkSize(name benchfmt.Name) error {
	_, parts := name.Parts()
	for i, p := range parts {
		s, ok := strings.CutPrefix(string(p), "/size=")
		if !ok {
			continue
		}
		if s == "" && i+1 < len(parts) && strings.HasPrefix(string(parts[i+1]), "-") {
			s = string(parts[i+1])
		}
		if !isInteger(s) {
			continue
		}
		if n, err := strconv.Atoi(s); err != nil || n < 1 || n > MaxSize {
			return fmt.Errorf("expected /size=N with N between 1 and %d bytes, got size=%s", MaxSize, s)
		}
	}
	return nil
}

// isInteger reports whether s is an optionally signed decimal integer.
func isInteger(s string) bool {
	s = strings.TrimLeft(s, "+-")
	return s != "" && strings.Trim(s, "0123456789") == ""
}
