package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/variant"
)

// Layout probe defaults: the sweep and doctor race every copy of the
// calibration chain at another address or loop offset against it, two
// verdicts each (six copies), within probeShare of the sweep's budget,
// at least probeMin and at most probeMax.
const (
	probeVerdicts = 12
	probeShare    = 40 // 1/40 of the budget
	probeMin      = 3 * time.Second
	probeMax      = 15 * time.Second
)

// probeLayout measures the host's layout floor with placement A/A races
// of the calibration chain, verdicts in all, within budget; ok is false
// where the build has no calibration copies (purego, not amd64).
func probeLayout(ctx context.Context, base *harness.Config, verdicts int, budget time.Duration) (l harness.Layout, ok bool, err error) {
	b := variant.Lookup(calibKernel, calibBase)
	if b == nil {
		return harness.Layout{}, false, nil
	}
	cases := placementCases(b, verdicts)
	if len(cases) == 0 {
		return harness.Layout{}, false, nil
	}
	cfg := *base
	cfg.Race.Floor = 0 // the floor is what is measured
	cfg.Results, cfg.Progress, cfg.Resume, cfg.Log = io.Discard, nil, nil, nil
	cfg.Run = harness.NewRun(cfg.Seed)
	cfg.Budget = budget / time.Duration(verdicts)
	res, err := harness.Selftest(ctx, &cfg, variant.LookupKernel(calibKernel), cases, ruleJudge(selftestRule(&cfg), 0))
	return harness.SelftestLayout(res), true, err
}

// probeBudget is the layout probe's share of a sweep's budget.
func probeBudget(sweep time.Duration) time.Duration {
	return min(max(sweep/probeShare, probeMin), probeMax)
}

// floorConfig states a measured floor as the layout-floor config value:
// "0.12% (calib copies: 6 placements, 12 verdicts; largest +0.12%
// [+0.05%, +0.19%] at A/A copy=2 (other address))".
func floorConfig(l harness.Layout) string {
	return fmt.Sprintf("%.2f%% (calib copies: %d placements, %d verdicts; largest %+.2f%% [%+.2f%%, %+.2f%%] at %s)",
		100*l.Floor, l.Placements, l.Verdicts, 100*l.Largest.Ratio, 100*l.Largest.Lo, 100*l.Largest.Hi, l.LargestWhere)
}

// parseFloor reads a layout-floor config value or --layout-floor flag
// ("0.8%", "0.8"): the floor as a fraction.
func parseFloor(s string) (float64, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, fmt.Errorf("empty layout floor")
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "%"), 64)
	if err != nil || v < 0 || v > 100 {
		return 0, fmt.Errorf("layout floor %q: want a percentage, e.g. 0.5", s)
	}
	return v / 100, nil
}
