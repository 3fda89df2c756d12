package export

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/internal/fixtures"
)

// opFile returns a result file of one Zen 4 run in which shake128.many
// prefers ways=8 at kernel level, but the whole operation mlkem768.keygen
// runs fastest with ways=2.
func opFile(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(fixture("zen4.txt"))
	if err != nil {
		t.Fatal(err)
	}
	header := string(data[:strings.Index(string(data), "kernel: ")])
	var b strings.Builder
	b.WriteString(header)
	write := func(kernel, bench string, means map[string]float64) {
		fmt.Fprintf(&b, "kernel: %s\n", kernel)
		for i := 0; i < 10; i++ {
			for v, m := range means {
				fmt.Fprintf(&b, "Benchmark%s/%s 1000 %.2f ns/op\n", bench, v, m*(1+0.001*float64(i)))
			}
		}
	}
	write("shake128.many", "SHAKE128Many", map[string]float64{"isa=generic/size=8": 9000, "ways=2/size=8": 3000, "ways=8/size=8": 1500})
	write("mlkem768.keygen", "MLKEM768KeyGen", map[string]float64{"isa=generic": 90000, "ways=2/ntt=avx2/poly=avx2": 20000, "ways=8/ntt=avx2/poly=avx2": 23000})
	return fixtures.WriteFile(t, "ops.txt", b.String())
}

func TestDecideByOperation(t *testing.T) {
	path := opFile(t)
	tab, _, err := ExportFiles([]string{path}, reports.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got := exportedVariant(tab, "shake128.many"); got != "ways=8" {
		t.Fatalf("kernel-level shake128.many entry %q, want ways=8", got)
	}
	for _, e := range tab.Entries {
		if e.Kernel == "mlkem768.keygen" {
			t.Errorf("exported an entry for the whole operation: %+v", e)
		}
	}
	for _, d := range tab.Defaults {
		if d.Kernel == "mlkem768.keygen" {
			t.Errorf("exported a default for the whole operation: %+v", d)
		}
	}
	set, _, err := reports.Read([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	notes, err := DecideByOperation(tab, reports.Analyze(set, reports.DefaultOptions()), "mlkem768.keygen")
	if err != nil {
		t.Fatal(err)
	}
	for _, kernel := range []string{"shake128.many", "shake256.many"} {
		if got := exportedVariant(tab, kernel); got != "ways=2" {
			t.Errorf("%s entry after --by-operation: %q, want ways=2 (the operation's winner)", kernel, got)
		}
	}
	if len(notes) != 2 || !strings.Contains(notes[0], "decided by mlkem768.keygen") {
		t.Errorf("notes %q, want one per changed kernel", notes)
	}
	if _, err := DecideByOperation(tab, reports.Analyze(set, reports.DefaultOptions()), "mldsa65.sign"); err == nil {
		t.Error("an operation without results accepted")
	}
}

func exportedVariant(tab *Table, kernel string) string {
	for _, e := range tab.Entries {
		if e.Kernel == kernel && len(e.Choices) == 1 {
			return e.Choices[0].Variant
		}
	}
	return ""
}

func TestOperationEffects(t *testing.T) {
	set, _, err := reports.Read([]string{opFile(t)})
	if err != nil {
		t.Fatal(err)
	}
	es := reports.Analyze(set, reports.DefaultOptions()).OperationEffects()
	if len(es) != 1 {
		t.Fatalf("%d effects, want one (ways=8 against the winner's ways=2)", len(es))
	}
	e := es[0]
	if e.Knob != "ways" || e.Value != "8" || e.WinnerValue != "2" || !e.HasKernel || e.Kernel != "shake128.many" {
		t.Fatalf("effect %+v", e)
	}
	if e.Op.Pct < 0.14 || e.Op.Pct > 0.16 || e.KernelEffect.Pct > -0.49 || e.KernelEffect.Pct < -0.51 {
		t.Errorf("effects: operation %+.3f (want +0.15), kernel %+.3f (want -0.50)", e.Op.Pct, e.KernelEffect.Pct)
	}
	if s := e.String(); !strings.Contains(s, "ways=8 vs 2: kernel shake128.many") || !strings.Contains(s, "mlkem768.keygen +15.0%") {
		t.Errorf("String() = %q", s)
	}
}
