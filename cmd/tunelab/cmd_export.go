package main

import (
	"fmt"

	"github.com/tunelab/tunelab/reports"
)

// defaultGoTable is where --format go writes unless -o says otherwise.
const defaultGoTable = "kernels/dispatch/ztable.go"

func init() {
	register(&command{
		name:    "export",
		summary: "export the per-CPU-model dispatch table as JSON or Go (kernels/dispatch/ztable.go)",
		run:     runExport,
	})
}

func runExport(e *env, args []string) error {
	fs := newFlags(e, "export", "export FILE... --format json|go [-o OUT]")
	format := fs.String("format", "json", "output format: json or go")
	out := fs.String("o", "", "output `file` (json: stdout if empty; go: "+defaultGoTable+")")
	opt := reports.DefaultOptions()
	fs.Float64Var(&opt.Alpha, "alpha", opt.Alpha, "significance level of Mann-Whitney U tests")
	fs.Float64Var(&opt.Threshold, "threshold", opt.Threshold, "smallest relative advantage that counts as a win (0.01 = 1%)")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("export: no result files given")
	}
	if *format != "json" && *format != "go" {
		return usagef("export: --format must be json or go, not %q", *format)
	}
	rep, err := analyzeFiles(e, files, opt)
	if err != nil {
		return err
	}
	table := rep.Export()
	if err := table.Validate(); err != nil {
		return fmt.Errorf("export: refusing to write an invalid dispatch table:\n%w", err)
	}
	data, err := encodeTable(table, *format)
	if err != nil {
		return err
	}
	if *out == "" && *format == "go" {
		*out = defaultGoTable
	}
	if *out == "" {
		_, err := e.stdout.Write(data)
		return err
	}
	return reports.WriteFileAtomic(*out, data)
}

func encodeTable(t *reports.Table, format string) ([]byte, error) {
	if format == "go" {
		return t.Go()
	}
	return t.JSON()
}
