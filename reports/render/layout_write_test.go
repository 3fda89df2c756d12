package render

import (
	"io"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/internal/fixtures"
)

// TestReportsStateTheLayoutFloor: every report format states the layout
// floor a run recorded.
func TestReportsStateTheLayoutFloor(t *testing.T) {
	set, warnings, err := reports.Read([]string{fixtures.RoundsFile(t, "0.8% (calib copies)")})
	if err != nil {
		t.Fatalf("Read: %v (warnings %v)", err, warnings)
	}
	r := reports.Analyze(set, reports.DefaultOptions())
	for name, write := range map[string]func(io.Writer) error{"text": report{r}.writeText, "markdown": report{r}.writeMarkdown, "html": report{r}.writeHTML} {
		var b strings.Builder
		if err := write(&b); err != nil || !strings.Contains(b.String(), "0.8% (calib copies") {
			t.Errorf("%s report (err %v) does not state the recorded layout floor", name, err)
		}
	}
}
