package perfcounters

import (
	"strings"
	"testing"
)

func TestRawFieldsConfig(t *testing.T) {
	tests := []struct {
		f    RawFields
		want uint64
	}{
		{RawFields{Event: 0xc0}, 0xc0},
		{RawFields{Event: 0x76, Umask: 0x00}, 0x76},
		{RawFields{Event: 0x28f, Umask: 0x03}, 0x2_0000_038f},
		{RawFields{Event: 0xfff, Umask: 0xff}, 0xf_0000_ffff},
		{RawFields{Event: 0xc4, Umask: 0x01, Cmask: 2, Inv: true, Edge: true}, 0xc4 | 0x01<<8 | 1<<18 | 1<<23 | 2<<24},
		{RawFields{Event: 0x3c, Cmask: 0xff}, 0xff00003c},
	}
	for _, tt := range tests {
		if got := tt.f.Config(); got != tt.want {
			t.Errorf("%+v.Config() = %#x, want %#x", tt.f, got, tt.want)
		}
	}
}

func TestParseRawEvents(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
	}{
		{"r00c0", 0xc0},
		{"r4f2e", 0x4f2e},
		{"r2000003", 0x2000003},
		{"event=0x76,umask=0x0", 0x76},
		{"event=0x28f,umask=0x03", 0x2_0000_038f},
		{"event=0xc4,umask=1,cmask=2,inv,edge", 0xc4 | 0x01<<8 | 1<<18 | 1<<23 | 2<<24},
		{"event=0xc4,inv=0,edge=1", 0xc4 | 1<<18},
		{"cpu/event=0x3c,umask=0x00/", 0x3c},
	}
	for _, tt := range tests {
		specs, err := ParseSpecsFor(tt.in, "Zen 4")
		if err != nil {
			t.Errorf("ParseSpecs(%q): %v", tt.in, err)
			continue
		}
		if len(specs) != 1 || specs[0].Kind != Raw || specs[0].Type != typeRaw || specs[0].Config != tt.want {
			t.Errorf("ParseSpecs(%q) = %+v, want one raw event with config %#x", tt.in, specs, tt.want)
		}
	}
}

func TestParseSpecsList(t *testing.T) {
	specs, err := ParseSpecsFor("cycles, event=0x76,umask=0x0,cmask=1 ,task-clock,cpu/event=0xc0,umask=0/,cs,L1-icache-load-misses", "Zen 4")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name string
		kind Kind
		typ  uint32
		cfg  uint64
	}{
		{"cycles", Hardware, typeHardware, hwCPUCycles},
		{"event=0x76,umask=0x0,cmask=1", Raw, typeRaw, 0x76 | 1<<24},
		{"task-clock", Software, typeSoftware, swTaskClock},
		{"cpu/event=0xc0,umask=0/", Raw, typeRaw, 0xc0},
		{"context-switches", Software, typeSoftware, swContextSwitches},
		{"L1-icache-load-misses", HWCache, typeHWCache, cacheL1I | resultMiss<<16},
	}
	if len(specs) != len(want) {
		t.Fatalf("got %d specs %+v, want %d", len(specs), specs, len(want))
	}
	for i, w := range want {
		s := specs[i]
		if s.Name != w.name || s.Kind != w.kind || s.Type != w.typ || s.Config != w.cfg {
			t.Errorf("spec %d = {%s %v type %d config %#x}, want {%s %v type %d config %#x}",
				i, s.Name, s.Kind, s.Type, s.Config, w.name, w.kind, w.typ, w.cfg)
		}
	}
}

func TestHWCacheEncoding(t *testing.T) {
	// perf_event_open(2): config = id | op<<8 | result<<16.
	tests := map[string]uint64{
		"L1-dcache-loads":       0x000000,
		"L1-dcache-load-misses": 0x010000,
		"L1-icache-load-misses": 0x010001,
		"LLC-load-misses":       0x010002,
		"dTLB-load-misses":      0x010003,
		"iTLB-load-misses":      0x010004,
	}
	for name, want := range tests {
		s, ok := lookupFixed(name)
		if !ok || s.Type != typeHWCache || s.Config != want {
			t.Errorf("%s: got %+v (found %v), want hw-cache config %#x", name, s, ok, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "no events"},
		{"cycles,,task-clock", "empty item"},
		{"cycles,bogus", `item 2 "bogus": unknown event`},
		{"event=0x1000", "exceeds 12 bits"},
		{"event=0x10,umask=0x100", "exceeds 8 bits"},
		{"event=zz", "not a number"},
		{"umask=0x1", "unknown event"},
		{"cpu/umask=0x1/", "needs event="},
		{"cpu/event=0x10,foo=1/", `unknown raw term "foo"`},
		{"cpu/event=0x10", "missing closing"},
		{"msr/event=0x10/", `unknown PMU "msr"`},
		{"event=0x10,inv=2", "want 0 or 1"},
		{"cycles,cpu-cycles", "listed twice"},
		{"r00zz", "unknown event"},
		{"opcache-hits", `not defined for microarchitecture "Skylake"`},
	}
	for _, tt := range tests {
		_, err := ParseSpecsFor(tt.in, "Skylake")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseSpecs(%q) error = %v, want it to contain %q", tt.in, err, tt.want)
		}
	}
}

func TestUarchEvents(t *testing.T) {
	tests := []struct {
		uarch, event string
		want         uint64
	}{
		{"Zen 4", "opcache-hits", 0x2_0000_038f},
		{"Zen 4", "opcache-misses", 0x2_0000_048f},
		{"Zen 3", "ops-from-opcache", 0x02aa},
		{"Zen 5", "l1i-misses", 0x1_0000_188e},
		{"Skylake (server)", "ops-from-opcache", 0x0879},
		{"Cascade Lake", "l1i-misses", 0x0283},
		{"Tiger Lake", "ops-from-decoder", 0x0479},
		{"Sapphire Rapids", "dsb-to-mite-switch-cycles", 0x0261},
		{"Alder Lake", "ops-from-opcache", 0x0879},
	}
	for _, tt := range tests {
		specs, err := ParseSpecsFor(tt.event, tt.uarch)
		if err != nil {
			t.Errorf("%s %s: %v", tt.uarch, tt.event, err)
			continue
		}
		if specs[0].Config != tt.want || specs[0].Kind != Raw {
			t.Errorf("%s %s: config %#x, want %#x", tt.uarch, tt.event, specs[0].Config, tt.want)
		}
	}
	for _, u := range []string{"Zen 3", "Zen 4", "Zen 5", "Skylake", "Ice Lake (server)", "Emerald Rapids"} {
		evs := UarchEvents(u)
		if len(evs) < 3 || evs[0].Name != "opcache-hits" && evs[0].Name != "ops-from-opcache" {
			t.Errorf("UarchEvents(%q) = %v: want op-cache/DSB events first", u, evs)
		}
	}
	if evs := UarchEvents("unknown (AuthenticAMD 0x17 0x31)"); evs != nil {
		t.Errorf("UarchEvents(unknown) = %v, want none", evs)
	}
}

func TestUarchTableWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range uarchEvents {
		key := e.group + "/" + e.name
		if seen[key] {
			t.Errorf("uarch event %s defined twice", key)
		}
		seen[key] = true
		if e.fields.Event >= 1<<12 || e.source == "" {
			t.Errorf("uarch event %s: event %#x out of range or source missing", key, e.fields.Event)
		}
		if _, ok := lookupFixed(e.name); ok {
			t.Errorf("uarch event %s shadows a generic event", key)
		}
	}
	for _, g := range uarchGroups {
		if len(UarchEvents(g.prefix)) == 0 {
			t.Errorf("uarch prefix %q maps to group %q with no events", g.prefix, g.group)
		}
	}
}

// TestKernelOnlyEvents checks which software events are never opened user
// mode only: the two the kernel raises in its scheduler.
func TestKernelOnlyEvents(t *testing.T) {
	var got []string
	for _, s := range fixedEvents {
		if kernelOnly(s) {
			got = append(got, s.Name)
		}
	}
	if strings.Join(got, ",") != "context-switches,cpu-migrations" {
		t.Errorf("kernel-only events %q, want context-switches and cpu-migrations", got)
	}
}
