package dispatch

import (
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
)

// Feature sets of the synthetic CPUs below.
var (
	// iceLakeSP: AVX-512 with IFMA and VBMI but no BF16 (no table entry
	// was measured with exactly these features).
	iceLakeSP = append(append([]string{}, v4Features...), "adx", "aes", "pclmulqdq", "sha", "avx512vbmi", "avx512vbmi2",
		"avx512ifma", "avx512vnni", "avx512bitalg", "avx512vpopcntdq", "vaes", "vpclmulqdq", "gfni")
	skylakeX  = append(append([]string{}, v4Features...), "adx", "aes", "pclmulqdq")
	zen3All   = append(append([]string{}, v3Features...), "adx", "aes", "pclmulqdq", "sha", "vaes", "vpclmulqdq")
	alderLake = append(append([]string{}, v3Features...), "adx", "aes", "pclmulqdq", "sha", "vaes", "vpclmulqdq", "gfni")
)

// Entries of measured CPUs for the nearest tests (kernel kern).
var (
	emeraldEntry = Entry{Vendor: cpu.VendorIntel, Family: 6, Model: 0xcf, Uarch: "Emerald Rapids", Kernel: kern,
		Features: zen4All, Choices: []Choice{ch(1024, "isa=avx512"), ch(0, "isa=ifma")}}
	genoaEntry = Entry{Vendor: cpu.VendorAMD, Family: 0x19, Model: 0x11, Uarch: "Zen 4", Kernel: kern,
		Features: zen4All, Choices: []Choice{ch(64, "isa=avx2"), ch(0, "isa=ifma")}}
	skylakeEntry = Entry{Vendor: cpu.VendorIntel, Family: 6, Model: 0x55, Uarch: "Skylake-SP", Kernel: kern,
		Features: skylakeX, Choices: []Choice{ch(0, "isa=avx512")}}
	zen3Entry = Entry{Vendor: cpu.VendorAMD, Family: 0x19, Model: 0x01, Uarch: "Zen 3", Kernel: kern,
		Features: zen3All, Choices: []Choice{ch(256, genericName), ch(0, "isa=avx2")}}
	// alderLakeEntry is the entry of a v3 model whose number a VM with
	// AVX-512 features may report.
	alderLakeEntry = Entry{Vendor: cpu.VendorIntel, Family: 6, Model: 0x97, Uarch: "Alder Lake", Kernel: kern,
		Features: alderLake, Choices: []Choice{ch(0, "isa=avx2")}}
)

// TestResolveNearest resolves synthetic CPUs the table does not name (or
// names by a model number whose features they do not have): the nearest
// measured CPU's entry decides where one qualifies, else the defaults,
// and never a variant the CPU cannot run.
func TestResolveNearest(t *testing.T) {
	all := []Entry{zen3Entry, emeraldEntry, skylakeEntry}
	tests := []struct {
		name    string
		cpu     func(t *testing.T) *cpu.CPU
		entries []Entry
		rule    Rule
		want    string // plan
		table   string // substring of KernelPlan.Table
	}{
		{"v4 with IFMA takes the entry measured with its relevant features", cpuOf(cpu.VendorIntel, 6, 0x6a, iceLakeSP), all, RuleNearest,
			"1024:isa=avx512:nearest,0:isa=ifma:nearest",
			"nearest measured CPU GenuineIntel/0x06/0xcf (Emerald Rapids) [same vendor and family; measured with this host's features that test.k's tabled variants use (avx2 avx512f avx512vl avx512ifma); 34 features in common]"},
		{"v4 with IFMA, level rule", cpuOf(cpu.VendorIntel, 6, 0x6a, iceLakeSP), all, RuleDefaults,
			"0:isa=avx512:default", ""},
		{"v4 without IFMA takes the entry measured without it", cpuOf(cpu.VendorIntel, 6, 0x6a, skylakeX), all, RuleNearest,
			"0:isa=avx512:nearest", "nearest measured CPU GenuineIntel/0x06/0x55 (Skylake-SP) [same vendor and family"},
		{"v4 without IFMA and no entry measured without it", cpuOf(cpu.VendorIntel, 6, 0x6a, skylakeX), []Entry{zen3Entry, emeraldEntry}, RuleNearest,
			"0:isa=avx512:default",
			"no measured CPU qualifies (1 measured at another feature level, 1 with features this host lacks, 0 without features it has that test.k's tabled variants use); using default x86-64-v4"},
		{"AVX2 CPU", cpuOf(cpu.VendorIntel, 6, 0x97, alderLake), all, RuleNearest,
			"256:isa=generic:nearest,0:isa=avx2:nearest", "nearest measured CPU AuthenticAMD/0x19/0x01 (Zen 3)"},
		{"model number of a v3 CPU with AVX-512 features", cpuOf(cpu.VendorIntel, 6, 0x97, zen4All), append([]Entry{alderLakeEntry}, all...), RuleNearest,
			"1024:isa=avx512:nearest,0:isa=ifma:nearest",
			"entry for this model skipped: measured at x86-64-v3, below this host's x86-64-v4; nearest measured CPU GenuineIntel/0x06/0xcf (Emerald Rapids)"},
		{"model number of an AVX-512 CPU with AVX2 features", cpuOf(cpu.VendorIntel, 6, 0xcf, alderLake), all, RuleNearest,
			"256:isa=generic:nearest,0:isa=avx2:nearest",
			"entry for this model skipped: measured with avx512f,"},
		{"same vendor and family first", cpuOf(cpu.VendorAMD, 0x19, 0x61, zen4All), []Entry{emeraldEntry, genoaEntry}, RuleNearest,
			"64:isa=avx2:nearest,0:isa=ifma:nearest", "nearest measured CPU AuthenticAMD/0x19/0x11 (Zen 4) [same vendor and family"},
		{"more features in common first", cpuOf(cpu.VendorIntel, 6, 0x6a, zen4All),
			[]Entry{withFeatures(skylakeEntry, without(zen4All, "gfni")), emeraldEntry}, RuleNearest,
			"1024:isa=avx512:nearest,0:isa=ifma:nearest", "(Emerald Rapids) [same vendor and family; measured with this host's features that test.k's tabled variants use (avx2 avx512f avx512vl avx512ifma); 35 features in common]"},
		{"the own model's entry first", zen4, []Entry{emeraldEntry, genoaEntry}, RuleNearest,
			"64:isa=avx2:table,0:isa=ifma:table", "table AuthenticAMD/0x19/0x11 (Zen 4) [features exact]"},
		{"legacy entries of other models not used", cpuOf(cpu.VendorAMD, 0x19, 0x61, zen4All), []Entry{withFeatures(emeraldEntry, nil)}, RuleNearest,
			"0:isa=avx512:default", ""},
		{"masked features count as absent", maskedCPU(cpuOf(cpu.VendorAMD, 0x19, 0x61, zen4All), "avx512ifma=off"), all, RuleNearest,
			"0:isa=avx512:nearest", "nearest measured CPU GenuineIntel/0x06/0x55 (Skylake-SP)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			host := tt.cpu(t)
			kp := ResolveRule(host, Table{Entries: tt.entries, Defaults: []Default{defV4, defV3}}, tt.rule, "", kern, testCands)
			if got := planString(kp.Choices); got != tt.want {
				t.Errorf("plan %s, want %s (table %q, nearest %+v)", got, tt.want, kp.Table, kp.Nearest)
			}
			if !strings.Contains(kp.Table, tt.table) {
				t.Errorf("table summary %q, want it to contain %q", kp.Table, tt.table)
			}
			checkPlan(t, host, kp)
			checkEntries(t, host, kp)
			checkNearest(t, kp)
		})
	}
}

// cpuOf returns a constructor of a synthetic CPU.
func cpuOf(vendor string, family, model int, features []string) func(t *testing.T) *cpu.CPU {
	return func(t *testing.T) *cpu.CPU { return synth(t, vendor, family, model, features) }
}

func maskedCPU(f func(t *testing.T) *cpu.CPU, spec string) func(t *testing.T) *cpu.CPU {
	return func(t *testing.T) *cpu.CPU { c := f(t); c.Mask(spec); return c }
}

// checkNearest checks that at most one other model's entry is used, that
// it qualifies and that the plan names it, and that every status is
// explained.
func checkNearest(t *testing.T, kp KernelPlan) {
	t.Helper()
	used := 0
	for i, s := range kp.Nearest {
		if s.Why == "" {
			t.Errorf("nearest status %d %+v has no explanation", i, s)
		}
		if !s.Used {
			continue
		}
		used++
		if !s.Qualifies || !strings.Contains(strings.Join(kp.Details, "\n"), nearWhere(s)) {
			t.Errorf("nearest status %d %+v used but does not qualify or no choice names it (details %q)", i, s, kp.Details)
		}
	}
	nearest := strings.Contains(strings.Join(kp.Details, "\n"), "nearest ")
	if used > 1 || (used == 1) != nearest {
		t.Errorf("%d nearest entries used; plan details %q", used, kp.Details)
	}
}

// TestNearestStatuses checks the explanation of each other model's
// entry: the used one first, then the nearer-ranked qualifying ones,
// then the others in table order with why they do not qualify.
func TestNearestStatuses(t *testing.T) {
	host := synth(t, cpu.VendorIntel, 6, 0x6a, zen4All)
	kp := Resolve(host, Table{Entries: []Entry{zen3Entry, skylakeEntry, genoaEntry, emeraldEntry}}, "", kern, testCands)
	want := []string{
		"nearest measured CPU GenuineIntel/0x06/0xcf (Emerald Rapids) [same vendor and family; measured with this host's features that test.k's tabled variants use (avx2 avx512f avx512vl avx512ifma); 35 features in common]",
		"not used: GenuineIntel/0x06/0xcf (Emerald Rapids) is nearer; nearest measured CPU AuthenticAMD/0x19/0x11 (Zen 4) [other vendor or family; measured with this host's features that test.k's tabled variants use (avx2 avx512f avx512vl avx512ifma); 35 features in common]",
		"AuthenticAMD/0x19/0x01 (Zen 3) not used: measured at x86-64-v3, this host is x86-64-v4",
		"GenuineIntel/0x06/0x55 (Skylake-SP) not used: measured without avx512ifma, which this host has (test.k's tabled variants use them)",
	}
	if len(kp.Nearest) != len(want) {
		t.Fatalf("%d nearest statuses %+v, want %d", len(kp.Nearest), kp.Nearest, len(want))
	}
	for i, s := range kp.Nearest {
		if s.Why != want[i] || s.Used != (i == 0) {
			t.Errorf("status %d: used %v, why %q; want used %v, why %q", i, s.Used, s.Why, i == 0, want[i])
		}
	}
	if kp.Table != want[0] {
		t.Errorf("table summary %q, want %q", kp.Table, want[0])
	}
}
