package align

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// DefaultOffsets is the default --offsets value: every fourth byte of the
// 64-byte line.
const DefaultOffsets = "0-63/4"

// ParseOffsets parses a list of loop-head offsets within a 64-byte line:
// comma-separated items, each a single offset "N", a range "A-B" or a
// stepped range "A-B/S" (A, A+S, ... up to B). Offsets are 0..63. The
// result is sorted and without duplicates.
func ParseOffsets(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("parsing offsets %q: empty list", s)
	}
	var out []int
	for _, item := range strings.Split(s, ",") {
		offs, err := parseOffsetItem(strings.TrimSpace(item))
		if err != nil {
			return nil, fmt.Errorf("parsing offsets %q: %w", s, err)
		}
		out = append(out, offs...)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// parseOffsetItem parses one item of an offset list.
func parseOffsetItem(item string) ([]int, error) {
	rng, stepStr, hasStep := strings.Cut(item, "/")
	loStr, hiStr, hasRange := strings.Cut(rng, "-")
	lo, err := parseOffset(loStr)
	if err != nil {
		return nil, err
	}
	hi, step := lo, 1
	if hasRange {
		if hi, err = parseOffset(hiStr); err != nil {
			return nil, err
		}
	}
	if hasStep {
		if !hasRange {
			return nil, fmt.Errorf("%q: a step needs a range A-B/S", item)
		}
		if step, err = strconv.Atoi(stepStr); err != nil || step < 1 {
			return nil, fmt.Errorf("%q: step must be a positive integer", item)
		}
	}
	if hi < lo {
		return nil, fmt.Errorf("%q: range end below its start", item)
	}
	var out []int
	for o := lo; o <= hi; o += step {
		out = append(out, o)
	}
	return out, nil
}

func parseOffset(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 63 {
		return 0, fmt.Errorf("%q: offset must be an integer in 0..63", s)
	}
	return n, nil
}

// FormatOffsets writes offsets compactly, e.g. "0-60/4" or "0,8,12".
func FormatOffsets(offs []int) string {
	if len(offs) > 2 {
		step := offs[1] - offs[0]
		regular := step > 0
		for i := 2; i < len(offs) && regular; i++ {
			regular = offs[i]-offs[i-1] == step
		}
		if regular {
			r := fmt.Sprintf("%d-%d", offs[0], offs[len(offs)-1])
			if step > 1 {
				r += "/" + strconv.Itoa(step)
			}
			return r
		}
	}
	parts := make([]string, len(offs))
	for i, o := range offs {
		parts[i] = strconv.Itoa(o)
	}
	return strings.Join(parts, ",")
}
