package profiler

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// Meta describes what a profile measured.
type Meta struct {
	Kernel, Variant string
	Size            int
	CPU             string // CPU model label, e.g. "Zen 4 (AMD EPYC 9454)"
	Event           string // sampled event, e.g. "cpu-clock" or "cycles"
	Unit            string // unit of Event: "nanoseconds" or "count"
	Period          int64  // events between samples
	Source          string // sampling source, for the comments
	Start           time.Time
	Duration        time.Duration
}

// Build turns per-PC sample counts into a profile: sample types
// "samples/count" and "<event>/<unit>" (samples x period), labels kernel,
// variant, size and cpu on every sample, one location per PC with its
// function and source line, and mappings covering the PCs.
func Build(counts map[uint64]int64, m Meta, mappings []*profile.Mapping) (*profile.Profile, error) {
	p := &profile.Profile{
		SampleType:        []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: m.Event, Unit: m.Unit}},
		DefaultSampleType: m.Event,
		PeriodType:        &profile.ValueType{Type: m.Event, Unit: m.Unit},
		Period:            m.Period,
		TimeNanos:         m.Start.UnixNano(),
		DurationNanos:     int64(m.Duration),
		Mapping:           mappings,
		Comments:          comments(m),
	}
	funcs := map[string]*profile.Function{}
	for _, pc := range sortedPCs(counts) {
		loc := &profile.Location{ID: uint64(len(p.Location) + 1), Address: pc, Mapping: mappingFor(mappings, pc)}
		if ln, ok := lineFor(p, funcs, pc); ok {
			loc.Line = []profile.Line{ln}
		}
		p.Location = append(p.Location, loc)
		p.Sample = append(p.Sample, &profile.Sample{
			Location: []*profile.Location{loc},
			Value:    []int64{counts[pc], counts[pc] * m.Period},
			Label:    labels(m),
		})
	}
	if err := p.CheckValid(); err != nil {
		return nil, fmt.Errorf("building profile: %w", err)
	}
	return p, nil
}

func comments(m Meta) []string {
	return []string{
		"tunelab profile " + m.Kernel + " " + m.Variant + " size=" + strconv.Itoa(m.Size),
		"sampling source: " + m.Source,
		fmt.Sprintf("event %s, one sample every %d %s", m.Event, m.Period, m.Unit),
		"cpu: " + m.CPU,
	}
}

func labels(m Meta) map[string][]string {
	return map[string][]string{"kernel": {m.Kernel}, "variant": {m.Variant}, "size": {strconv.Itoa(m.Size)}, "cpu": {m.CPU}}
}

func sortedPCs(counts map[uint64]int64) []uint64 {
	pcs := make([]uint64, 0, len(counts))
	for pc := range counts {
		pcs = append(pcs, pc)
	}
	sort.Slice(pcs, func(i, j int) bool { return pcs[i] < pcs[j] })
	return pcs
}

// lineFor resolves pc to its function and file:line with the runtime's PC
// table (which covers assembly functions), adding the function to p once.
func lineFor(p *profile.Profile, funcs map[string]*profile.Function, pc uint64) (profile.Line, bool) {
	f := runtime.FuncForPC(uintptr(pc))
	if f == nil {
		return profile.Line{}, false
	}
	file, line := f.FileLine(uintptr(pc))
	fn := funcs[f.Name()]
	if fn == nil {
		entryFile, entryLine := f.FileLine(f.Entry())
		fn = &profile.Function{ID: uint64(len(p.Function) + 1), Name: f.Name(), SystemName: f.Name(),
			Filename: entryFile, StartLine: int64(entryLine)}
		if entryFile != file {
			fn.Filename = file
		}
		funcs[f.Name()] = fn
		p.Function = append(p.Function, fn)
	}
	return profile.Line{Function: fn, Line: int64(line)}, true
}

func mappingFor(ms []*profile.Mapping, pc uint64) *profile.Mapping {
	for _, m := range ms {
		if pc >= m.Start && pc < m.Limit {
			return m
		}
	}
	if len(ms) > 0 {
		return ms[0]
	}
	return nil
}

// SelfMappings returns the executable mappings of this process from
// /proc/self/maps, marked symbolized; off Linux (or if unreadable) one
// mapping spanning the address space, named after the executable.
func SelfMappings() []*profile.Mapping {
	exe, _ := os.Executable()
	ms := parseMaps("/proc/self/maps")
	if len(ms) == 0 {
		ms = []*profile.Mapping{{Start: 0, Limit: ^uint64(0), File: exe}}
	}
	for i, m := range ms {
		m.ID = uint64(i + 1)
		m.HasFunctions, m.HasFilenames, m.HasLineNumbers = true, true, true
	}
	return ms
}

// parseMaps reads the executable (r-xp) mappings of a /proc/PID/maps file.
func parseMaps(path string) []*profile.Mapping {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var ms []*profile.Mapping
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := parseMapsLine(sc.Text()); m != nil {
			ms = append(ms, m)
		}
	}
	return ms
}

// parseMapsLine parses "start-end perms offset dev inode path" and returns
// nil for non-executable or malformed lines.
func parseMapsLine(line string) *profile.Mapping {
	f := strings.Fields(line)
	if len(f) < 5 || !strings.Contains(f[1], "x") {
		return nil
	}
	lo, hi, ok := strings.Cut(f[0], "-")
	start, err1 := strconv.ParseUint(lo, 16, 64)
	limit, err2 := strconv.ParseUint(hi, 16, 64)
	off, err3 := strconv.ParseUint(f[2], 16, 64)
	if !ok || err1 != nil || err2 != nil || err3 != nil {
		return nil
	}
	m := &profile.Mapping{Start: start, Limit: limit, Offset: off}
	if len(f) >= 6 {
		m.File = strings.Join(f[5:], " ")
	}
	return m
}
