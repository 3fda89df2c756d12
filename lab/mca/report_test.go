package mca

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func fixtureReport() *Report {
	return &Report{
		MCPUs: []string{"znver4"},
		Host:  "znver4",
		Results: []*Result{
			{Kernel: "k", Variant: "isa=a<b>", TripsPerOp: 2,
				Predictions: []*ModelPrediction{{MCPU: "znver4", CyclesPerOp: 20, Prediction: &Prediction{CyclesPerIter: 10, IPC: 2, Bottleneck: "port X"}}}},
			{Kernel: "k", Variant: "isa=c", TripsPerOp: 2,
				Predictions: []*ModelPrediction{{MCPU: "znver4", CyclesPerOp: 10, Prediction: &Prediction{CyclesPerIter: 5, IPC: 3, Bottleneck: "dependency chain"}}}},
		},
		Reconciled: []Comparison{{Kernel: "k", Variant: "isa=c", PredictedPerIter: 5, MeasuredPerIter: 7, Ratio: 1.4, Flagged: true}},
	}
}

func TestReportHTMLIsWellFormedAndRanked(t *testing.T) {
	var b bytes.Buffer
	if err := fixtureReport().WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(strings.NewReader("<div>" + b.String() + "</div>"))
	for {
		if _, err := d.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("HTML fragment is not well-formed: %v\n%s", err, b.String())
			}
			break
		}
	}
	out := b.String()
	if strings.Index(out, "isa=c") > strings.Index(out, "isa=a&lt;b&gt;") {
		t.Errorf("cheaper variant isa=c not ranked first:\n%s", out)
	}
	if !strings.Contains(out, "disagree &gt;25%") {
		t.Errorf("flagged reconciliation missing:\n%s", out)
	}
}

func TestReadReportRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mca.json")
	data, err := json.Marshal(fixtureReport())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := ReadReport(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Results) != 2 || r.Results[1].For("znver4").CyclesPerOp != 10 {
		t.Errorf("round trip lost data: %+v", r.Results)
	}
	if err := os.WriteFile(path, []byte("not json"), 0o644); err == nil {
		if _, err := ReadReport(path); err == nil {
			t.Error("ReadReport accepted a non-JSON file")
		}
	}
}
