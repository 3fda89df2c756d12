package reports

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"slices"
	"sort"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/kernels/cpu"
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
	// Tag tells apart the feature sets of one CPU model in a set, e.g.
	// "without avx512bw,avx512f"; "" when the set has one.
	Tag string
	// Unknown marks the model of results without tunelab's host identity:
	// reported, compared, never exported.
	Unknown bool
	// LayoutFloor is the largest layout floor (layout-floor config: the
	// largest difference between byte-identical copies of one function
	// at other addresses) the model's runs recorded, LayoutFloorNote the
	// config that set it (how it was measured); 0 and "" if none did.
	LayoutFloor     float64
	LayoutFloorNote string
	id              string // ID, once the reader interned the model
}

// ID returns the grouping key of the model: dispatch key, uarch and
// features.
func (m *Model) ID() string {
	if m.id != "" {
		return m.id
	}
	return modelID(m.Key, m.Uarch, m.Features)
}

// modelID keys a model by dispatch key, uarch and feature set: one CPU
// model measured with two feature sets (a VM hiding AVX-512, a mask) is
// two models, never pooled.
func modelID(key, uarch string, features []string) string {
	return key + " " + uarch + " [" + strings.Join(features, ",") + "]"
}

// Label returns a short human-readable name: the uarch, else the key,
// and the feature-set tag when the set holds the model with several
// feature sets.
func (m *Model) Label() string {
	name := m.Key
	if m.Uarch != "" {
		name = m.Uarch
	}
	if m.Tag != "" {
		name += " (" + m.Tag + ")"
	}
	return name
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
	// Rounds holds the round of each NS value ("run-id#segment#n", see
	// the sweep's round lines), "" where the file recorded none: two
	// variants are compared pair by pair over the rounds they share.
	Rounds []string
	TSC    []float64 // tsc-cycles/op, may be empty
	// Core holds est-core-cycles/op (core cycles estimated from TSC ticks
	// and a dependent-add chain, not PMU cycles), may be empty.
	Core []float64
	// Eliminated and Excluded say that every run that measured the point
	// eliminated it in its race (slower, significantly) or excluded it
	// (crashed, failed verification): such a variant never wins.
	Eliminated, Excluded bool
	runs                 []int    // the runs (reader.runNames) that measured it
	runSet               []uint64 // runs as a bit set
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
	// Rules are the decision rules the runs recorded (decision-rule
	// config), sorted, each once.
	Rules  []string
	Files  []*File
	Models []*Model // sorted by ID
	Points []*Point // sorted by model, kernel, size, variant
	// Failures are the contenders sweeps excluded (failed verification,
	// crashed), sorted by model, group and variant.
	Failures []*Failure
	// variants holds what the files recorded of each variant (keyed by
	// variantKey), operations the kernels they recorded as whole
	// operations: see Set.info.
	variants   map[string]*resultfile.VariantInfo
	operations map[string]bool
	// qualities holds the notes of the groups sweeps marked busy or
	// short, by qualityKey.
	qualities map[string][]string
}

// A reader accumulates results from several files.
type reader struct {
	set      *Set
	models   map[string]*Model
	points   map[pointKey]*Point
	runOwner map[string]string // run-id -> "f:input#stretch" that introduced it, or "marked"
	// markerOwner maps "run-id#n" of a segment line to its first file:line.
	markerOwner map[string]string
	runs        map[string]*runState
	segmentSums map[string]segmentSum // marked segment key -> digest of its results
	eliminated  map[verdictKey]bool
	excluded    map[verdictKey]bool
	why         map[verdictKey]string // excluded contender -> the reason the sweep gave
	inputs      int                   // files read so far
	warnings    []string
	proj        projections
	runNames    []string                    // run-ids by runState.id
	names       map[string]*resultfile.Name // benchmark name -> what it says
}

type pointKey struct {
	model, kernel, variant string
	size                   int
}

// projections are the benchproc projections used to group results.
type projections struct {
	model  *benchproc.Projection
	fields map[string]*benchproc.Field
}

func newProjections() projections {
	var pp benchproc.ProjectionParser
	filter, _ := benchproc.NewFilter("*")
	p := projections{fields: map[string]*benchproc.Field{}}
	p.model, _ = pp.Parse("dispatch-key,uarch,cpu-vendor,cpu-family,cpu-model", filter)
	for _, f := range p.model.Fields() {
		p.fields[f.Name] = f
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
		runs:     map[string]*runState{}, markerOwner: map[string]string{}, segmentSums: map[string]segmentSum{},
		eliminated: map[verdictKey]bool{}, excluded: map[verdictKey]bool{}, why: map[verdictKey]string{}, names: map[string]*resultfile.Name{},
	}
	for _, p := range paths {
		if err := rd.readFile(p); err != nil {
			return nil, rd.warnings, err
		}
	}
	rd.finish()
	return rd.set, rd.warnings, nil
}

// readFile streams one file: memory holds what the set keeps (samples
// per point), never the file.
func (rd *reader) readFile(path string) error {
	r, err := resultfile.Open(path)
	if err != nil {
		return fmt.Errorf("reading results: %w", err)
	}
	defer r.Close()
	rd.inputs++
	fr := &fileRead{rd: rd, r: r, f: &File{Path: path}, seg: segmenter{input: rd.inputs}}
	err = fr.readAll()
	rd.warnings = append(rd.warnings, r.Warnings()...)
	if err != nil {
		return err
	}
	fr.f.Digest = r.Digest()
	return fr.finish()
}

// A fileRead is the state of reading one file.
type fileRead struct {
	rd                             *reader
	r                              *resultfile.Reader
	f                              *File
	seg                            segmenter
	dupMarker                      bool // the current segment line repeats one already read
	seen, dup, cold, unknown, kept int
	// segment digests the current marked segment's results, to tell a
	// copy of a segment from a forgery reusing its run-id and number.
	segment segmentDigest
	cfg     fileConfig
	// round is the round the last round line announced.
	round roundMark
	// names counts the file's names renamed and gone (see today).
	names nameCounts
}

// A fileConfig is what the file's current config says about its results,
// derived once per config version (resultfile.Reader.ConfigVersion):
// results between two config lines share it.
type fileConfig struct {
	version  uint64
	valid    bool
	run      string
	st       *runState // nil without a run-id
	cold     bool      // align-entry: cold
	unknown  bool      // no tunelab host identity
	model    *Model
	modelErr error
	kernel   string // kernel config
	bench    string // the benchmark last checked against kernel
}

// readAll handles every record of the file in line order.
func (fr *fileRead) readAll() error {
	for fr.r.Scan() {
		var err error
		if m := fr.r.Mark(); m != nil {
			err = fr.mark(m, fr.r.Line())
		} else {
			err = fr.result(fr.r.Result())
		}
		if err != nil {
			return err
		}
	}
	return fr.r.Err()
}

// result handles one result line (valid until the next Scan).
func (fr *fileRead) result(res *benchfmt.Result) error {
	fr.seen++
	c, err := fr.config(res)
	if err != nil {
		return err
	}
	name := fr.rd.nameOf(res)
	if err := fr.checkBench(name.Kernel); err != nil {
		return err
	}
	key := fr.seg.segment(c.run)
	if strings.HasPrefix(key, "m:") {
		fr.segment.add(res)
	}
	if !fr.claim(key, c.run) {
		fr.dup++
		return nil
	}
	if c.cold {
		fr.cold++
		return nil
	}
	if c.unknown {
		fr.unknown++
	}
	if m := fr.rd.add(fr, c, name, res); m != nil {
		fr.f.Results++
	}
	return nil
}

// config returns what the current config says, refusing a result that
// changes its run's identity.
func (fr *fileRead) config(res *benchfmt.Result) (*fileConfig, error) {
	v := fr.r.ConfigVersion()
	if fr.cfg.valid && fr.cfg.version == v {
		return &fr.cfg, nil
	}
	c := fileConfig{version: v, valid: true, run: res.GetConfig("run-id"),
		cold: res.GetConfig("align-entry") == "cold", unknown: !hasIdentity(res), kernel: res.GetConfig("kernel")}
	if c.run != "" {
		c.st = fr.rd.runState(c.run)
		if err := c.st.checkIdentity(res, fr.at()); err != nil {
			return nil, err
		}
	}
	c.model, c.modelErr = fr.rd.model(res)
	if note := res.GetConfig(resultfile.LayoutFloorKey); note != "" && c.model != nil {
		c.model.noteFloor(note, layoutFloor(note))
	}
	if c.st != nil && c.st.model == nil {
		c.st.model = c.model
	}
	fr.cfg = c
	return &fr.cfg, nil
}

// checkBench checks the benchmark of the current result against the
// kernel config (once per benchmark and config).
func (fr *fileRead) checkBench(bench string) error {
	c := &fr.cfg
	if c.st == nil || bench == c.bench {
		return nil
	}
	c.bench = bench
	return c.st.checkBench(c.kernel, bench, fr.at())
}

// at is the file:line of the current record.
func (fr *fileRead) at() string { return fmt.Sprintf("%s:%d", fr.f.Path, fr.r.Line()) }

// claim reports whether a result of run in segment key is new data.
func (fr *fileRead) claim(key, run string) bool {
	if strings.HasPrefix(key, "m:") {
		return !fr.dupMarker
	}
	return fr.rd.claimRun(fr.f, run, key)
}

// mark handles a harness line: a segment line starts a segment (a
// repeated one marks the results after it as duplicates); eliminated
// and excluded lines record the race's verdicts for the current run.
func (fr *fileRead) mark(m *resultfile.Mark, line int) error {
	at := fmt.Sprintf("%s:%d", fr.f.Path, line)
	switch m.Kind {
	case resultfile.KindSegment:
		if m.Err != nil {
			return fmt.Errorf("%s: %v", at, m.Err)
		}
		return fr.startSegment(m, at)
	case resultfile.KindRound:
		fr.round = newRoundMark(fr.seg.marker, m)
	case resultfile.KindEliminated, resultfile.KindExcluded:
		if m.Err != nil || fr.dupMarker || fr.seg.commentRun == "" {
			return nil
		}
		fr.rd.verdict(fr.seg.commentRun, m.Kind, m.Group, m.Label, m.Reason)
	case resultfile.KindQuality:
		if m.Err != nil || fr.dupMarker || fr.seg.commentRun == "" {
			return nil
		}
		fr.noteQuality(m.Quality)
	case resultfile.KindVariant:
		if m.Err != nil {
			fr.r.Warnf(line, "%v: variant line ignored", m.Err)
			return nil
		}
		fr.rd.set.noteVariant(m.Variant)
	}
	return nil
}

// startSegment starts the segment of a segment line at "at".
func (fr *fileRead) startSegment(m *resultfile.Mark, at string) error {
	rd, key := fr.rd, markerKey(m)
	if err := fr.endSegment(); err != nil {
		return err
	}
	fr.segment = segmentDigest{key: key, at: at, dup: !rd.newMarker(key), h: fnv.New64a()}
	fr.seg.setMarker(key, m.Run)
	fr.dupMarker = !rd.claimMarker(fr.f, key, m.Run, at)
	fr.round = roundMark{}
	return nil
}

// finish checks what the file contributed and reports what was left out.
func (fr *fileRead) finish() error {
	if err := fr.endSegment(); err != nil {
		return err
	}
	rd, f, path := fr.rd, fr.f, fr.f.Path
	if fr.seen == 0 && fr.r.Skipped() > 0 {
		return fmt.Errorf("reading %s: no usable benchmark results: all %d were skipped (see warnings)", path, fr.r.Skipped())
	}
	if fr.seen == 0 {
		return fmt.Errorf("reading %s: no benchmark results (empty or not in Go benchmark format)", path)
	}
	if fr.dup > 0 {
		rd.warnings = append(rd.warnings, fmt.Sprintf("%s: %d results of already-read runs skipped (duplicate run-id and segment: a copy of data read before)", path, fr.dup))
	}
	if fr.cold > 0 {
		rd.warnings = append(rd.warnings, fmt.Sprintf("%s: %d cold-entry results (align-entry: cold) left out: reports compare steady-state throughput; 'tunelab align --entry cold' analyses them", path, fr.cold))
	}
	rd.warnings = append(rd.warnings, fr.names.warnings(path)...)
	if fr.unknown > 0 {
		rd.warnings = append(rd.warnings, fmt.Sprintf("%s: %d results carry no tunelab host identity (dispatch-key, features): reported as measured on an unknown host; export makes no table entries from them", path, fr.unknown))
	}
	if f.Results == 0 && fr.dup == 0 && fr.cold == 0 {
		return fmt.Errorf("reading %s: no usable benchmark results (see warnings)", path)
	}
	rd.set.Files = append(rd.set.Files, f)
	return nil
}

// A segmentDigest hashes the results of one marked segment in order.
type segmentDigest struct {
	key, at string
	dup     bool // the segment repeats one read before
	h       hash.Hash64
	buf     []byte
}

func (d *segmentDigest) add(res *benchfmt.Result) {
	if d.h == nil {
		return
	}
	b := append(d.buf[:0], res.Name...)
	b = binary.LittleEndian.AppendUint64(append(b, 0), uint64(res.Iters))
	for _, v := range res.Values {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Value))
		b = append(append(b, v.Unit...), 0)
	}
	d.buf = append(b, '\n')
	d.h.Write(d.buf)
}

// endSegment records the digest of a segment read first, and refuses a
// repeated segment whose results differ from the first one's: a copy is
// skipped, a forgery under the same run-id and segment number is an error.
func (fr *fileRead) endSegment() error {
	d := fr.segment
	if d.h == nil {
		return nil
	}
	fr.segment = segmentDigest{}
	sum := d.h.Sum64()
	if !d.dup {
		fr.rd.segmentSums[d.key] = segmentSum{sum, d.at}
		return nil
	}
	if first, ok := fr.rd.segmentSums[d.key]; ok && first.sum != sum {
		return fmt.Errorf("%s: segment %s repeats the one at %s with different results: refusing the file (one run's data cannot differ between copies)", d.at, d.key, first.at)
	}
	return nil
}

// A segmentSum is the digest of a segment's results and where it began.
type segmentSum struct {
	sum uint64
	at  string
}

// newMarker reports whether no segment with key was read before.
func (rd *reader) newMarker(key string) bool {
	_, seen := rd.markerOwner[key]
	return !seen
}

// claimRun reports whether results of run belong to segment (files
// Without segment lines); the first segment that shows a run-id owns it.
// Results without a run-id are kept.
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

// claimMarker reports whether the segment line at "at" is the first
// occurrence of segment key; a run read before without segment lines
// owns all its data.
func (rd *reader) claimMarker(f *File, key, run, at string) bool {
	if owner, ok := rd.runOwner[run]; ok && owner != "marked" {
		return false
	}
	if _, ok := rd.markerOwner[key]; ok {
		return false
	}
	rd.markerOwner[key] = at
	if _, ok := rd.runOwner[run]; !ok {
		f.RunIDs = append(f.RunIDs, run)
	}
	rd.runOwner[run] = "marked"
	return true
}

// verdict records that the race of run eliminated or excluded label in
// group ("kernel" or "kernel/size=N"); reason is why it excluded it.
func (rd *reader) verdict(run, kind, group, label, reason string) {
	k := verdictKey{run, group, label}
	if kind == resultfile.KindExcluded {
		rd.excluded[k] = true
		rd.why[k] = reason
	} else {
		rd.eliminated[k] = true
	}
}

// A verdictKey names one contender of one group in one run.
type verdictKey struct{ run, group, label string }

// hasIdentity reports whether a result carries tunelab's host identity.
func hasIdentity(res *benchfmt.Result) bool {
	return res.GetConfig("dispatch-key") != "" || res.GetConfig("cpu-vendor") != ""
}

// add records one result and returns its model; it returns nil (with a
// warning through r) if the result lacks what a report needs. A result
// Without tunelab's host identity belongs to the unknown host; without
// a kernel config, its benchmark name is its kernel.
func (rd *reader) add(fr *fileRead, c *fileConfig, name *resultfile.Name, res *benchfmt.Result) *Model {
	r, round := fr.r, fr.round
	line := r.Line()
	if c.modelErr != nil {
		r.Warnf(line, "%v", c.modelErr)
		return nil
	}
	ours := c.run != "" // written by a tunelab sweep: held to its format
	kernel, variant, size := c.kernel, name.Variant, name.Size
	switch {
	case kernel == "" && ours:
		r.Warnf(line, "expected a \"kernel:\" config line before this result (run %s was written by tunelab)", c.run)
		return nil
	case ours && !name.Knobs:
		r.Warnf(line, "expected key=value variant knobs (e.g. /isa=generic) in benchmark name %s (run %s was written by tunelab)", res.Name, c.run)
		return nil
	case name.SizeErr != nil && ours:
		r.Warnf(line, "%v", name.SizeErr)
		return nil
	case name.SizeErr != nil: // a foreign size=1kB: part of the name, not a size
		size, variant = 0, name.Sub
	}
	if kernel == "" {
		kernel = name.Kernel
	}
	kernel, variant, ok := fr.today(kernel, variant, ours)
	if !ok {
		return nil
	}
	p := rd.point(pointKey{c.model.ID(), kernel, variant, size}, c.model, name)
	rd.addSample(p, res, c)
	p.Rounds = append(p.Rounds, round.key(kernel, size))
	return c.model
}

// addSample appends a result's values to p and notes its run.
func (rd *reader) addSample(p *Point, res *benchfmt.Result, c *fileConfig) {
	ns, _ := res.Value("sec/op") // resultfile checked it is there and in range
	p.NS = append(p.NS, ns*1e9)
	if v, ok := res.Value("tsc-cycles/op"); ok {
		p.TSC = append(p.TSC, v)
	}
	if v, ok := res.Value(resultfile.EstCoreCyclesUnit); ok {
		p.Core = append(p.Core, v)
	}
	if c.st != nil {
		p.addRun(c.st.id)
	}
}

// addRun records that run id measured p.
func (p *Point) addRun(id int) {
	w, bit := id/64, uint64(1)<<(id%64)
	if w >= len(p.runSet) {
		p.runSet = append(p.runSet, make([]uint64, w+1-len(p.runSet))...)
	}
	if p.runSet[w]&bit == 0 {
		p.runSet[w] |= bit
		p.runs = append(p.runs, id)
	}
}

// nameOf returns what res's benchmark name says (parsed once per
// distinct name).
func (rd *reader) nameOf(res *benchfmt.Result) *resultfile.Name {
	if n := rd.names[string(res.Name)]; n != nil {
		return n
	}
	n := resultfile.ParseName(res.Name)
	rd.names[string(res.Name)] = &n
	return &n
}

func (rd *reader) point(k pointKey, m *Model, name *resultfile.Name) *Point {
	p := rd.points[k]
	if p == nil {
		p = &Point{Model: m, Kernel: k.kernel, Bench: name.Base, Size: k.size, Variant: k.variant, FullName: name.Full}
		rd.points[k] = p
	}
	return p
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
		return rd.unknownModel(), nil
	}
	id := modelID(dk, get("uarch"), featureList(res.GetConfig("features")))
	if m := rd.models[id]; m != nil {
		return m, nil
	}
	m, err := newModel(dk, get("uarch"), res)
	if err != nil {
		return nil, err
	}
	m.id = id
	rd.models[id] = m
	return m, nil
}

// UnknownHostKey is the dispatch key of the model of results that carry
// no tunelab host identity (plain Go benchmark files).
const UnknownHostKey = "unknown"

// unknownModel returns the model of results without host identity.
func (rd *reader) unknownModel() *Model {
	id := modelID(UnknownHostKey, "", nil)
	if m := rd.models[id]; m != nil {
		return m
	}
	m := &Model{Key: UnknownHostKey, Uarch: "unknown host", Unknown: true, id: id}
	rd.models[id] = m
	return m
}

func newModel(dk, uarch string, res *benchfmt.Result) (*Model, error) {
	vendor, family, model, err := cpu.ParseKey(dk)
	if err != nil {
		return nil, err
	}
	m := &Model{Key: dk, Uarch: uarch, CPU: res.GetConfig("cpu"), Level: res.GetConfig("feature-level")}
	m.Vendor, m.Family, m.Model = vendor, family, model
	m.Features = featureList(res.GetConfig("features"))
	return m, nil
}

// featureList parses a features config: sorted names.
func featureList(config string) []string {
	out := cpu.SplitList(config)
	sort.Strings(out)
	return out
}

func (rd *reader) finish() {
	rules := map[string]bool{}
	for _, st := range rd.runs {
		if rule := st.identity["decision-rule"].Value; rule != "" {
			rules[rule] = true
		}
	}
	rd.set.Rules = sortedKeys(rules)
	rd.set.Failures = rd.failures()
	for _, p := range rd.points {
		p.Eliminated = rd.allRuns(p, rd.eliminated)
		p.Excluded = rd.allRuns(p, rd.excluded)
	}
	for _, m := range rd.models {
		rd.set.Models = append(rd.set.Models, m)
	}
	sort.Slice(rd.set.Models, func(i, j int) bool { return rd.set.Models[i].ID() < rd.set.Models[j].ID() })
	tagFeatureSets(rd.set.Models)
	for _, p := range rd.points {
		rd.set.Points = append(rd.set.Points, p)
	}
	sort.Slice(rd.set.Points, func(i, j int) bool { return pointLess(rd.set.Points[i], rd.set.Points[j]) })
}

// tagFeatureSets tags the models measured with several feature sets by
// what each lacks of the union of their features ("all" for the one with
// every feature).
func tagFeatureSets(models []*Model) {
	byKey := map[string][]*Model{}
	for _, m := range models {
		byKey[m.Key+" "+m.Uarch] = append(byKey[m.Key+" "+m.Uarch], m)
	}
	for _, ms := range byKey {
		if len(ms) < 2 {
			continue
		}
		union := map[string]bool{}
		for _, m := range ms {
			for _, f := range m.Features {
				union[f] = true
			}
		}
		for _, m := range ms {
			var lacks []string
			for _, f := range sortedKeys(union) {
				if !slices.Contains(m.Features, f) {
					lacks = append(lacks, f)
				}
			}
			m.Tag = "all features"
			if len(lacks) > 0 {
				m.Tag = "without " + strings.Join(lacks, ",")
			}
		}
	}
}

// allRuns reports whether every run that measured p has a verdict in m.
func (rd *reader) allRuns(p *Point, m map[verdictKey]bool) bool {
	group := resultfile.GroupKey(p.Kernel, p.Size)
	for _, run := range p.runs {
		if !m[verdictKey{rd.runNames[run], group, p.Variant}] {
			return false
		}
	}
	return len(p.runs) > 0
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
