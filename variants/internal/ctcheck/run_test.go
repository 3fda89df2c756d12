package ctcheck

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/dispatch"
)

// testResult builds a Result of three functions: clean, leaky (one finding)
// and helper (one finding), with variants isa=clean (clean) and
// isa=leaky (clean, leaky).
func testResult() *Result {
	f := Finding{Kind: Address, Index: 3, Instr: "MOVQ (CX)(BX*8), DX", Line: 40}
	r := &Result{Args: Args{Secret: []string{"a"}, Public: []string{"n"}}, Asm: "x_amd64.s",
		Funcs: []*Func{
			{Name: "clean", Instrs: 10},
			{Name: "leaky", Instrs: 12, Findings: []Finding{f}, Whys: []string{"address register BX depends on the secret loaded at line 39"}},
			{Name: "helper", Instrs: 5},
		},
		byName: map[string]int{"clean": 0, "leaky": 1, "helper": 2}, byKey: map[[2]string]*variantRow{}}
	for _, v := range []*variantRow{{kernel: "k", name: "isa=clean", funcs: []int{0}}, {kernel: "k", name: "isa=leaky", funcs: []int{0, 1}}} {
		r.variants = append(r.variants, v)
		r.byKey[[2]string{v.kernel, v.name}] = v
	}
	return r
}

func TestGate(t *testing.T) {
	r := testResult()
	clean := dispatch.Table{Defaults: []dispatch.Default{{Kernel: "k", Choices: []dispatch.Choice{{Variant: "isa=clean"}}}}}
	if err := r.gate(clean); err != nil {
		t.Errorf("gate with a table naming the clean variant: %v", err)
	}
	leaky := dispatch.Table{Entries: []dispatch.Entry{{Kernel: "k", Choices: []dispatch.Choice{{Variant: "isa=leaky"}}}}}
	err := r.gate(leaky)
	if err == nil || !strings.Contains(err.Error(), "names k isa=leaky") || !strings.Contains(err.Error(), "leaky: address line 40") {
		t.Errorf("gate with a table naming the leaky variant: %v, want an error naming it and its finding", err)
	}
	r.Funcs[2].Findings = r.Funcs[1].Findings
	r.Funcs[2].Whys = r.Funcs[1].Whys
	if err := r.gate(clean); err == nil || !strings.Contains(err.Error(), "function helper is no variant") {
		t.Errorf("gate with a leaky helper: %v, want an error naming it", err)
	}
}

func TestRecordAndLeaky(t *testing.T) {
	mu.Lock()
	old := result
	result = testResult()
	mu.Unlock()
	defer func() { mu.Lock(); result = old; mu.Unlock() }()
	if !Leaky("k", "isa=leaky") || Leaky("k", "isa=clean") || Leaky("k", "isa=nosuch") {
		t.Error("Leaky: want only isa=leaky")
	}
	if err := RecordVariant("k", "isa=new", "helper", "clean"); err != nil {
		t.Fatal(err)
	}
	if err := RecordVariant("k", "isa=new", "leaky"); err != nil || !Leaky("k", "isa=new") {
		t.Errorf("a variant recorded again runs the union of its functions: err %v, Leaky %v", err, Leaky("k", "isa=new"))
	}
	if err := RecordVariant("k", "isa=bad", "nosuch"); err == nil {
		t.Error("RecordVariant of a function the generator did not build: no error")
	}
}

func TestWriteGo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "zstatic_test.go")
	r := testResult()
	if err := writeGo(path, r); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), path, src, 0); err != nil {
		t.Fatalf("the status file does not parse: %v\n%s", err, src)
	}
	for _, want := range []string{"DO NOT EDIT", "package ct", `Asm:       "variants/internal/ctcheck/x_amd64.s"`,
		`{Kind: "address", Line: 40, Instr: "MOVQ (CX)(BX*8), DX", Why: "address register BX depends on the secret loaded at line 39"}`,
		`{Kernel: "k", Name: "isa=leaky", Funcs: []int{0, 1}}`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("status file lacks %q:\n%s", want, src)
		}
	}
}
