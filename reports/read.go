package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"
)

// A Model identifies one CPU model: its dispatch key plus microarchitecture
// name, as written in a result file's config lines.
type Model struct {
	Key      string // dispatch-key, e.g. "AuthenticAMD/0x19/0x11"
	Uarch    string // e.g. "Zen 4"
	Vendor   string // cpuid vendor string
	Family   int
	Model    int
	Features []string // sorted feature names (features config)
	Level    string   // feature-level config, e.g. "x86-64-v4"
	CPU      string   // brand string
}

// ID returns the grouping key of the model: dispatch key and uarch.
func (m *Model) ID() string { return m.Key + " " + m.Uarch }

// Label returns a short human-readable name: the uarch, else the key.
func (m *Model) Label() string {
	if m.Uarch != "" {
		return m.Uarch
	}
	return m.Key
}

// Has reports whether the model has every feature in fs.
func (m *Model) Has(fs []string) bool {
	for _, f := range fs {
		i := sort.SearchStrings(m.Features, f)
		if i == len(m.Features) || m.Features[i] != f {
			return false
		}
	}
	return true
}

// A Point holds the samples of one variant of one kernel at one size on one
// CPU model.
type Point struct {
	Model    *Model
	Kernel   string // kernel config, e.g. "keccak.x4"
	Bench    string // benchmark base name, e.g. "BenchmarkKeccakX4"
	Size     int    // 0 for fixed-size kernels
	Variant  string // knob parts without size, e.g. "isa=avx2/align=64"
	FullName string // benchmark name without GOMAXPROCS suffix
	NS       []float64
	TSC      []float64 // tsc-cycles/op, may be empty
}

// A File describes one input file that contributed results.
type File struct {
	Path    string
	Digest  string // "sha256:<hex>" of the file's bytes
	Results int    // results kept (after de-duplication)
	RunIDs  []string
}

// A Set is the merged content of result files.
type Set struct {
	Files  []*File
	Models []*Model // sorted by ID
	Points []*Point // sorted by model, kernel, size, variant
}

// A reader accumulates results from several files.
type reader struct {
	set      *Set
	models   map[string]*Model
	points   map[pointKey]*Point
	runOwner map[string]string // run-id -> "input#segment" that introduced it
	inputs   int               // files read so far
	warnings []string
	proj     projections
}

type pointKey struct {
	model, kernel, variant string
	size                   int
}

// projections are the benchproc projections used to group results.
type projections struct {
	model, kernel, size *benchproc.Projection
	fields              map[string]*benchproc.Field
}

func newProjections() projections {
	var pp benchproc.ProjectionParser
	filter, _ := benchproc.NewFilter("*")
	p := projections{fields: map[string]*benchproc.Field{}}
	p.model, _ = pp.Parse("dispatch-key,uarch,cpu-vendor,cpu-family,cpu-model", filter)
	p.kernel, _ = pp.Parse("kernel", filter)
	p.size, _ = pp.Parse("/size", filter)
	for _, proj := range []*benchproc.Projection{p.model, p.kernel, p.size} {
		for _, f := range proj.Fields() {
			p.fields[f.Name] = f
		}
	}
	return p
}

// Read reads and merges benchmark result files. Malformed lines are skipped
// and returned as warnings of the form "file:line: what was expected". A
// file that cannot be read or holds no usable result is an error. Results
// of a run whose run-id was already read (from another file or an earlier
// part of the same file) are counted once.
func Read(paths []string) (*Set, []string, error) {
	if len(paths) == 0 {
		return nil, nil, errors.New("no result files given")
	}
	rd := &reader{
		set:      &Set{},
		models:   map[string]*Model{},
		points:   map[pointKey]*Point{},
		runOwner: map[string]string{},
		proj:     newProjections(),
	}
	for _, p := range paths {
		if err := rd.readFile(p); err != nil {
			return nil, rd.warnings, err
		}
	}
	rd.finish()
	return rd.set, rd.warnings, nil
}

func (rd *reader) warnf(file string, line int, format string, a ...any) {
	rd.warnings = append(rd.warnings, fmt.Sprintf("%s:%d: %s", file, line, fmt.Sprintf(format, a...)))
}

func (rd *reader) readFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading results: %w", err)
	}
	sum := sha256.Sum256(data)
	f := &File{Path: path, Digest: "sha256:" + hex.EncodeToString(sum[:])}
	r := benchfmt.NewReader(strings.NewReader(string(data)), path)
	rd.inputs++
	seen, dup, cold := 0, 0, 0
	lastRun, segment := "", 0
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			rd.warnf(rec.FileName, rec.Line, "%s (expected \"BenchmarkName iters value unit [value unit...]\")", rec.Msg)
		case *benchfmt.Result:
			seen++
			run := rec.GetConfig("run-id")
			if run != lastRun {
				lastRun, segment = run, segment+1
			}
			if !rd.claimRun(f, run, fmt.Sprintf("%d#%d", rd.inputs, segment)) {
				dup++
				continue
			}
			if string(rec.GetConfig("align-entry")) == "cold" {
				cold++
				continue
			}
			if rd.add(rec) {
				f.Results++
			}
		}
	}
	if err := r.Err(); err != nil && err != io.EOF {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	if seen == 0 {
		return fmt.Errorf("reading %s: no benchmark results (empty or not in Go benchmark format)", path)
	}
	if dup > 0 {
		rd.warnings = append(rd.warnings, fmt.Sprintf("%s: %d results of already-read runs skipped (duplicate run-id)", path, dup))
	}
	if cold > 0 {
		rd.warnings = append(rd.warnings, fmt.Sprintf("%s: %d cold-entry results (align-entry: cold) left out: reports compare steady-state throughput; 'tunelab align --entry cold' analyses them", path, cold))
	}
	if f.Results == 0 && dup == 0 && cold == 0 {
		return fmt.Errorf("reading %s: no usable benchmark results (see warnings)", path)
	}
	rd.set.Files = append(rd.set.Files, f)
	return nil
}

// claimRun reports whether results of run belong to segment; the first
// segment that shows a run-id owns it. Results without a run-id are kept.
func (rd *reader) claimRun(f *File, run, segment string) bool {
	if run == "" {
		return true
	}
	owner, ok := rd.runOwner[run]
	if !ok {
		rd.runOwner[run] = segment
		f.RunIDs = append(f.RunIDs, run)
		return true
	}
	return owner == segment
}

// add records one result; it returns false (with a warning) if the result
// lacks what a report needs.
func (rd *reader) add(res *benchfmt.Result) bool {
	file, line := res.Pos()
	m, err := rd.model(res)
	if err != nil {
		rd.warnf(file, line, "%v", err)
		return false
	}
	kernel := rd.proj.kernel.Project(res).Get(rd.proj.fields["kernel"])
	if kernel == "" {
		rd.warnf(file, line, "expected a \"kernel:\" config line before this result")
		return false
	}
	variant, full, err := variantOf(res.Name)
	if err != nil {
		rd.warnf(file, line, "%v", err)
		return false
	}
	size, err := sizeOf(rd.proj.size.Project(res).Get(rd.proj.fields["/size"]))
	if err != nil {
		rd.warnf(file, line, "%v", err)
		return false
	}
	ns, ok := res.Value("sec/op")
	if !ok {
		rd.warnf(file, line, "expected a ns/op value")
		return false
	}
	p := rd.point(pointKey{m.ID(), kernel, variant, size}, m, res, full)
	p.NS = append(p.NS, ns*1e9)
	if c, ok := res.Value("tsc-cycles/op"); ok {
		p.TSC = append(p.TSC, c)
	}
	return true
}

func (rd *reader) point(k pointKey, m *Model, res *benchfmt.Result, full string) *Point {
	p := rd.points[k]
	if p == nil {
		base, _ := res.Name.Parts()
		p = &Point{Model: m, Kernel: k.kernel, Bench: string(base), Size: k.size, Variant: k.variant, FullName: full}
		rd.points[k] = p
	}
	return p
}

// variantOf extracts the variant name (knob parts other than size) and the
// full name without the GOMAXPROCS suffix.
func variantOf(name benchfmt.Name) (variant, full string, err error) {
	base, parts := name.Parts()
	var knobs []string
	full = string(base)
	for _, p := range parts {
		s := string(p)
		if strings.HasPrefix(s, "-") {
			continue // GOMAXPROCS
		}
		full += s
		kv := strings.TrimPrefix(s, "/")
		if !strings.Contains(kv, "=") {
			return "", "", fmt.Errorf("expected key=value in benchmark name part %q of %s", kv, name)
		}
		if !strings.HasPrefix(kv, "size=") {
			knobs = append(knobs, kv)
		}
	}
	if len(knobs) == 0 {
		return "", "", fmt.Errorf("expected variant knobs (e.g. /isa=generic) in benchmark name %s", name)
	}
	return strings.Join(knobs, "/"), full, nil
}

func sizeOf(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("expected a non-negative integer size, got size=%s", s)
	}
	return n, nil
}

// model returns the (interned) CPU model a result was measured on.
func (rd *reader) model(res *benchfmt.Result) (*Model, error) {
	key := rd.proj.model.Project(res)
	get := func(k string) string { return key.Get(rd.proj.fields[k]) }
	dk := get("dispatch-key")
	if dk == "" && get("cpu-vendor") != "" {
		dk = get("cpu-vendor") + "/" + get("cpu-family") + "/" + get("cpu-model")
	}
	if dk == "" {
		return nil, errors.New("expected CPU identity config (dispatch-key or cpu-vendor/cpu-family/cpu-model) before this result")
	}
	id := dk + " " + get("uarch")
	if m := rd.models[id]; m != nil {
		return m, nil
	}
	m, err := newModel(dk, get("uarch"), res)
	if err != nil {
		return nil, err
	}
	rd.models[id] = m
	return m, nil
}

func newModel(dk, uarch string, res *benchfmt.Result) (*Model, error) {
	m := &Model{Key: dk, Uarch: uarch, CPU: res.GetConfig("cpu"), Level: res.GetConfig("feature-level")}
	parts := strings.Split(dk, "/")
	if len(parts) != 3 {
		return nil, fmt.Errorf("expected dispatch-key vendor/family/model, got %q", dk)
	}
	fam, err1 := strconv.ParseInt(parts[1], 0, 32)
	mod, err2 := strconv.ParseInt(parts[2], 0, 32)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("expected hex family and model in dispatch-key, got %q", dk)
	}
	m.Vendor, m.Family, m.Model = parts[0], int(fam), int(mod)
	for _, f := range strings.Split(res.GetConfig("features"), ",") {
		if f = strings.TrimSpace(f); f != "" {
			m.Features = append(m.Features, f)
		}
	}
	sort.Strings(m.Features)
	return m, nil
}

func (rd *reader) finish() {
	for _, m := range rd.models {
		rd.set.Models = append(rd.set.Models, m)
	}
	sort.Slice(rd.set.Models, func(i, j int) bool { return rd.set.Models[i].ID() < rd.set.Models[j].ID() })
	for _, p := range rd.points {
		rd.set.Points = append(rd.set.Points, p)
	}
	sort.Slice(rd.set.Points, func(i, j int) bool { return pointLess(rd.set.Points[i], rd.set.Points[j]) })
}

func pointLess(a, b *Point) bool {
	if a.Model != b.Model {
		return a.Model.ID() < b.Model.ID()
	}
	if a.Kernel != b.Kernel {
		return a.Kernel < b.Kernel
	}
	if a.Size != b.Size {
		return a.Size < b.Size
	}
	return a.Variant < b.Variant
}
