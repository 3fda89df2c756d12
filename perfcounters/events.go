package perfcounters

// Generic hardware event configs (enum perf_hw_id).
const (
	hwCPUCycles             = 0
	hwInstructions          = 1
	hwCacheReferences       = 2
	hwCacheMisses           = 3
	hwBranchInstructions    = 4
	hwBranchMisses          = 5
	hwStalledCyclesFrontend = 7
	hwStalledCyclesBackend  = 8
	hwRefCPUCycles          = 9
)

// Software event configs (enum perf_sw_ids).
const (
	swCPUClock        = 0
	swTaskClock       = 1
	swPageFaults      = 2
	swContextSwitches = 3
	swCPUMigrations   = 4
	swMinorFaults     = 5
	swMajorFaults     = 6
)

// Hardware cache ids, ops and results (enum perf_hw_cache_*); the config is
// id | op<<8 | result<<16.
const (
	cacheL1D  = 0
	cacheL1I  = 1
	cacheLL   = 2
	cacheDTLB = 3
	cacheITLB = 4

	cacheOpRead  = 0
	resultAccess = 0
	resultMiss   = 1
	cacheOpShift = 8
	resultShift  = 16
)

func hw(name string, cfg uint64, doc string) Spec {
	return Spec{Name: name, Kind: Hardware, Type: typeHardware, Config: cfg, Unit: "count", Doc: doc}
}

// kernelOnly reports whether s is a software event the kernel raises
// only in kernel mode, from its scheduler: a context switch or a
// migration. Counted user mode only (all perf_event_paranoid=2 allows
// without CAP_PERFMON) such an event reads 0 whatever happens, so it is
// never opened that way.
func kernelOnly(s Spec) bool {
	return s.Kind == Software && s.Type == typeSoftware && (s.Config == swContextSwitches || s.Config == swCPUMigrations)
}

func sw(name string, cfg uint64, unit, doc string) Spec {
	return Spec{Name: name, Kind: Software, Type: typeSoftware, Config: cfg, Unit: unit, Doc: doc}
}

func cache(name string, id, result uint64, doc string) Spec {
	cfg := id | cacheOpRead<<cacheOpShift | result<<resultShift
	return Spec{Name: name, Kind: HWCache, Type: typeHWCache, Config: cfg, Unit: "count", Doc: doc}
}

// fixedEvents are the generic events every Linux kernel names, in the
// order `tunelab counters` lists them.
var fixedEvents = []Spec{
	hw("cycles", hwCPUCycles, "core clock cycles (not TSC reference cycles)"),
	hw("instructions", hwInstructions, "retired instructions"),
	hw("ref-cycles", hwRefCPUCycles, "reference cycles at a constant rate, unaffected by frequency scaling"),
	hw("branches", hwBranchInstructions, "retired branch instructions"),
	hw("branch-misses", hwBranchMisses, "mispredicted branches"),
	hw("cache-references", hwCacheReferences, "last-level cache references (PMU-defined)"),
	hw("cache-misses", hwCacheMisses, "last-level cache misses (PMU-defined)"),
	hw("stalled-cycles-frontend", hwStalledCyclesFrontend, "cycles the front end delivered no ops"),
	hw("stalled-cycles-backend", hwStalledCyclesBackend, "cycles the back end could not accept ops"),
	cache("L1-icache-load-misses", cacheL1I, resultMiss, "L1 instruction cache read misses"),
	cache("L1-dcache-loads", cacheL1D, resultAccess, "L1 data cache reads"),
	cache("L1-dcache-load-misses", cacheL1D, resultMiss, "L1 data cache read misses"),
	cache("LLC-load-misses", cacheLL, resultMiss, "last-level cache read misses"),
	cache("dTLB-load-misses", cacheDTLB, resultMiss, "data TLB read misses"),
	cache("iTLB-load-misses", cacheITLB, resultMiss, "instruction TLB read misses"),
	sw("task-clock", swTaskClock, "nanoseconds", "time the thread was on a CPU"),
	sw("cpu-clock", swCPUClock, "nanoseconds", "CPU clock timer (per thread)"),
	sw("context-switches", swContextSwitches, "count", "context switches of the thread"),
	sw("cpu-migrations", swCPUMigrations, "count", "moves of the thread to another CPU"),
	sw("page-faults", swPageFaults, "count", "page faults"),
	sw("minor-faults", swMinorFaults, "count", "page faults served without I/O"),
	sw("major-faults", swMajorFaults, "count", "page faults that needed I/O"),
}

// aliases maps perf's alternative spellings to fixedEvents names.
var aliases = map[string]string{
	"cpu-cycles":           "cycles",
	"branch-instructions":  "branches",
	"cs":                   "context-switches",
	"migrations":           "cpu-migrations",
	"faults":               "page-faults",
	"idle-cycles-frontend": "stalled-cycles-frontend",
	"idle-cycles-backend":  "stalled-cycles-backend",
}

// lookupFixed returns the generic event called name (or an alias of it).
func lookupFixed(name string) (Spec, bool) {
	if canon, ok := aliases[name]; ok {
		name = canon
	}
	for _, s := range fixedEvents {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// DefaultSpecs returns the events `tunelab counters` and the harness list
// by default: every generic event plus the named front-end events of uarch.
func DefaultSpecs(uarch string) []Spec {
	out := append([]Spec(nil), fixedEvents...)
	return append(out, UarchEvents(uarch)...)
}
