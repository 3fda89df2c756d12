package export

import (
	"errors"
	"fmt"

	"github.com/tunelab/tunelab/reports"
)

// ExportFiles reads result files and exports their dispatch table (see
// FromReport) and returns the reader's warnings; with no files, the table is
// empty. One CPU model measured with several feature sets (a VM hiding
// AVX-512, a TUNELAB_CPU mask) is several models (Model.ID), so each
// feature set gets its own entries.
func ExportFiles(paths []string, opt reports.Options) (*Table, []string, error) {
	if len(paths) == 0 {
		return EmptyTable(), nil, nil
	}
	set, warnings, err := reports.Read(paths)
	if err != nil {
		return nil, warnings, err
	}
	t, err := ExportAnalyzed(reports.Analyze(set, opt))
	if err != nil {
		return nil, warnings, err
	}
	return t, append(warnings, t.unknownWarning...), nil
}

// EmptyTable returns a table with no entries or defaults.
func EmptyTable() *Table { return FromReport(&reports.Report{Set: &reports.Set{}}) }

// Warnings returns the warnings ExportAnalyzed had about the report (results
// Without host identity).
func (t *Table) Warnings() []string { return t.unknownWarning }

// ExportAnalyzed exports the table of an analyzed report (FromReport), for a
// command that reads its files once and uses the report beyond the
// table. A report whose every result is from an unknown host is an
// error.
func ExportAnalyzed(r *reports.Report) (*Table, error) {
	t := FromReport(r)
	if unknown := (report{r}).unknownHostPoints(); unknown > 0 {
		t.unknownWarning = []string{fmt.Sprintf("export: %d variant/size points carry no tunelab host identity (unknown host): no table entries or defaults are made from them", unknown)}
		if len(t.Entries) == 0 && len(t.Defaults) == 0 {
			return nil, errors.New("export: no table entries: every result is from an unknown host; export needs results of tunelab sweep, which record the host's dispatch key and features")
		}
	}
	return t, nil
}
