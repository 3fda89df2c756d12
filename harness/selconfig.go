package harness

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tunelab/tunelab/harness/resultfile"
)

// Config keys under which a sweep records its selection in every result
// (file-level config lines), so that --resume continues the same sweep.
const (
	SelKernels     = "sweep-kernels"      // kernel names, comma-separated
	SelVariant     = "sweep-variant"      // the variant glob, Go-quoted ("" for all)
	SelSizes       = "sweep-sizes"        // sizes, comma-separated, or "default"
	SelOffsetSweep = "sweep-offset-sweep" // true or false
	SelBudget      = "sweep-budget"       // a time.Duration
	SelPruneMCA    = "sweep-prune-mca"    // --prune-mca percent, 0 for off
)

// SelectionKeys are the selection's config keys, in writing order.
var SelectionKeys = []string{SelKernels, SelVariant, SelSizes, SelOffsetSweep, SelBudget, SelPruneMCA}

// A SweepSelection is everything that decides what a sweep measures:
// the selection, the budget and the llvm-mca pruning threshold.
type SweepSelection struct {
	Selection
	Budget   time.Duration
	PruneMCA float64
}

// Config returns the selection's config lines (key, value) in
// SelectionKeys order: the canonical form --resume compares.
func (s SweepSelection) Config() [][2]string {
	sizes := "default"
	if len(s.Sizes) > 0 {
		parts := make([]string, len(s.Sizes))
		for i, n := range s.Sizes {
			parts[i] = strconv.Itoa(n)
		}
		sizes = strings.Join(parts, ",")
	}
	return [][2]string{
		{SelKernels, strings.Join(s.Kernels, ",")},
		{SelVariant, strconv.Quote(s.Variant)},
		{SelSizes, sizes},
		{SelOffsetSweep, strconv.FormatBool(s.OffsetSweep)},
		{SelBudget, s.Budget.String()},
		{SelPruneMCA, strconv.FormatFloat(s.PruneMCA, 'g', -1, 64)},
	}
}

// ParseSweepSelection parses the selection config lines a result file
// recorded (see SweepSelection.Config); ok is false when the file
// recorded none (written before selections were recorded).
func ParseSweepSelection(cfg resultfile.RunIdentity) (s SweepSelection, ok bool, err error) {
	if cfg[SelKernels].Value == "" {
		return s, false, nil
	}
	for _, key := range SelectionKeys {
		c := cfg[key]
		if err := s.set(key, c.Value); err != nil {
			return s, true, fmt.Errorf("%s: %s: %w", c.At, key, err)
		}
	}
	return s, true, nil
}

// set parses one selection config value.
func (s *SweepSelection) set(key, v string) error {
	var err error
	switch key {
	case SelKernels:
		s.Kernels = strings.Split(v, ",")
	case SelVariant:
		s.Variant, err = strconv.Unquote(v)
	case SelSizes:
		s.Sizes, err = parseSizeList(v)
	case SelOffsetSweep:
		s.OffsetSweep, err = strconv.ParseBool(v)
	case SelBudget:
		s.Budget, err = time.ParseDuration(v)
		if err == nil && s.Budget <= 0 {
			err = fmt.Errorf("expected a positive duration, got %q", v)
		}
	case SelPruneMCA:
		s.PruneMCA, err = strconv.ParseFloat(v, 64)
	}
	return err
}

// parseSizeList parses "default" or comma-separated positive sizes.
func parseSizeList(v string) ([]int, error) {
	if v == "default" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("expected \"default\" or comma-separated positive sizes, got %q", v)
		}
		out = append(out, n)
	}
	return out, nil
}
