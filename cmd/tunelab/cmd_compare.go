package main

import (
	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/render"
)

func init() {
	register(&command{
		name:    "compare",
		summary: "compare two result sets benchmark by benchmark (old, new, delta, p-value)",
		run:     runCompare,
	})
}

// benchstatAlpha is benchstat's default significance level: compare
// gives benchstat's verdicts, across runs, where nothing is paired.
const benchstatAlpha = 0.05

func runCompare(e *env, args []string) error {
	fs := newFlags(e, "compare", "compare [--alpha A] OLD NEW")
	alpha := fs.Float64("alpha", benchstatAlpha, "significance level of Mann-Whitney U tests")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 2 {
		return usagef("compare: want OLD and NEW result files, got %d arguments", len(files))
	}
	old, err := readResults(e, files[:1])
	if err != nil {
		return err
	}
	cur, err := readResults(e, files[1:])
	if err != nil {
		return err
	}
	return render.WriteComparison(e.stdout, files[0], files[1], reports.CompareSets(old, cur), *alpha)
}
