package render

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/reports"
	"golang.org/x/perf/benchfmt"
)

func TestCompareSets(t *testing.T) {
	zen, _, err := reports.Read([]string{fixture("zen4.txt")})
	if err != nil {
		t.Fatal(err)
	}
	spr, _, err := reports.Read([]string{fixture("spr.txt")})
	if err != nil {
		t.Fatal(err)
	}
	rows := reports.CompareSets(zen, spr)
	units := map[string]int{}
	for _, r := range rows {
		units[r.Unit]++
	}
	if units["sec/op"] != 30 || units["tsc-cycles/op"] != 30 || len(units) != 2 {
		t.Fatalf("rows per unit %v, want 30 sec/op and 30 tsc-cycles/op (10 test.fixed + 5 variants x 4 sizes)", units)
	}
	for _, r := range rows {
		if r.Name == "TestFixed/isa=avx512vl/unroll=2/align=64" && r.Unit == "sec/op" && (r.Delta.Pct < 0.39 || r.Delta.Pct > 0.41 || r.Delta.P >= 0.05) {
			t.Errorf("%s: delta %v, want about +40%% (137.2 -> 192 ns), significant", r.Name, r.Delta)
		}
	}
	// Against itself nothing is significant: every delta prints as "~".
	var b bytes.Buffer
	if err := WriteComparison(&b, "a", "b", reports.CompareSets(zen, zen), 0.05); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "Test") && !strings.Contains(line, " ~ ") {
			t.Errorf("self-comparison line without ~: %q", line)
		}
	}
}

// TestCompareAgreesWithBenchstat compares x/perf's own benchstat test
// data, read by Read as plain Go benchmark files, with the table benchstat
// printed for it (testdata/benchstat/benchstat.golden, see the README
// there).
func TestCompareAgreesWithBenchstat(t *testing.T) {
	dir := fixture("benchstat")
	old, warnings, err := reports.Read([]string{filepath.Join(dir, "old.txt")})
	if err != nil {
		t.Fatalf("Read refuses x/perf's benchstat test data: %v", err)
	}
	cur, w2, err := reports.Read([]string{filepath.Join(dir, "new.txt")})
	if err != nil {
		t.Fatalf("Read refuses x/perf's benchstat test data: %v", err)
	}
	if warnings = append(warnings, w2...); len(warnings) > 2 {
		t.Errorf("%d warnings for two plain benchmark files, want at most one per file: %q", len(warnings), warnings)
	}
	checkAgainstBenchstat(t, filepath.Join(dir, "benchstat.golden"), reports.CompareSets(old, cur))
}

// TestCompareAgreesWithBenchstatCRC checks the statistics and formatting
// on 36 benchmarks that benchstat partly finds significant (p from 0.000
// to 0.055 and above): x/perf's crc-old.txt and crc-new.txt against
// testdata/benchstat/crc.golden. Their names carry size=1kB, which is no
// byte count, so the sets are built straight from benchfmt by full name:
// this test is about CompareSets and WriteComparison, not about Read.
func TestCompareAgreesWithBenchstatCRC(t *testing.T) {
	dir := fixture("benchstat")
	old := plainSet(t, filepath.Join(dir, "crc-old.txt"))
	cur := plainSet(t, filepath.Join(dir, "crc-new.txt"))
	checkAgainstBenchstat(t, filepath.Join(dir, "crc.golden"), reports.CompareSets(old, cur))
}

// plainSet builds a Set of one unknown host from a Go benchmark file, one
// point per full name (without the GOMAXPROCS suffix) with its sec/op.
func plainSet(t *testing.T, path string) *reports.Set {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := &reports.Model{Key: "unknown", Uarch: "unknown host", Unknown: true}
	set := &reports.Set{Models: []*reports.Model{m}}
	points := map[string]*reports.Point{}
	r := benchfmt.NewReader(f, path)
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		sec, ok := res.Value("sec/op")
		if !ok {
			continue
		}
		name := procsSuffixRE.ReplaceAllString(res.Name.String(), "")
		if p := points[name]; p != nil {
			p.NS = append(p.NS, sec*1e9)
			continue
		}
		points[name] = &reports.Point{Model: m, Kernel: name, Variant: "-", FullName: name, NS: []float64{sec * 1e9}}
		set.Points = append(set.Points, points[name])
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return set
}

// A benchstatRow is one row of a benchstat sec/op table.
type benchstatRow struct {
	old, new       string // centers, e.g. "1.718µ"
	oldPM, newPM   string // interval half-widths, e.g. "1%"
	delta, pn      string // "-17.20%" or "~"; "p=0.000 n=10"
	p              float64
	hasP           bool
	n1, n2         int
	geoOld, geoNew string
}

var (
	benchstatRowRE = regexp.MustCompile(`^(\S+)\s+(\S+) ± (\S+)\s+(\S+) ± (\S+)\s+(\S+) \(((?:p=(\S+) )?n=(\d+)(?:\+(\d+))?)\)$`)
	benchstatGeoRE = regexp.MustCompile(`^geomean\s+(\S+)\s+(\S+)\s+(\S+)$`)
	procsSuffixRE  = regexp.MustCompile(`-\d+$`)
)

// readBenchstat parses the first sec/op table of a benchstat text output:
// its rows by name (without the GOMAXPROCS suffix) and its geomean row.
func readBenchstat(t *testing.T, path string) (map[string]benchstatRow, []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]benchstatRow{}
	var geo []string
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), " ")
		switch {
		case !in:
			in = strings.Contains(line, "│") && strings.Contains(line, "sec/op")
		case line == "":
			return rows, geo
		case strings.HasPrefix(line, "geomean"):
			geo = benchstatGeoRE.FindStringSubmatch(line)
		default:
			name, row := parseBenchstatRow(t, path, n, line)
			rows[name] = row
		}
	}
	return rows, geo
}

func parseBenchstatRow(t *testing.T, path string, n int, line string) (string, benchstatRow) {
	m := benchstatRowRE.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("%s:%d: expected a benchstat row \"name old ± x%% new ± y%% delta (p=P n=N)\", got %q", path, n, line)
	}
	r := benchstatRow{old: m[2], oldPM: m[3], new: m[4], newPM: m[5], delta: m[6], pn: m[7], hasP: m[8] != ""}
	r.p, _ = strconv.ParseFloat(m[8], 64)
	r.n1, _ = strconv.Atoi(m[9])
	r.n2 = r.n1
	if m[10] != "" {
		r.n2, _ = strconv.Atoi(m[10])
	}
	return procsSuffixRE.ReplaceAllString(m[1], ""), r
}

// checkAgainstBenchstat requires tunelab's sec/op rows to be benchstat's:
// the same benchmarks, medians and interval widths within the golden's
// rounding, the same significance verdict, delta and p-value, and the
// same delta and "(p=... n=...)" cells in WriteComparison's table, and
// the same geomean ratio.
func checkAgainstBenchstat(t *testing.T, golden string, rows []reports.CompareRow) {
	t.Helper()
	want, geo := readBenchstat(t, golden)
	if len(want) == 0 || geo == nil {
		t.Fatalf("%s: no sec/op table with a geomean row", golden)
	}
	var out bytes.Buffer
	if err := WriteComparison(&out, "old", "new", rows, 0.05); err != nil {
		t.Fatal(err)
	}
	lines := tableLines(out.String())
	got := 0
	for _, r := range rows {
		if r.Unit != "sec/op" {
			continue
		}
		got++
		w, ok := want[r.Name]
		if !ok {
			t.Errorf("tunelab compares %s, which benchstat does not list", r.Name)
			continue
		}
		checkRow(t, r, w, lines[r.Name])
	}
	if got != len(want) {
		t.Errorf("tunelab has %d sec/op rows, benchstat %d", got, len(want))
	}
	if g := lines["geomean"]; !strings.Contains(g, " "+geo[3]) {
		t.Errorf("geomean row %q, want benchstat's ratio %s (benchstat: %q)", g, geo[3], geo[0])
	}
}

// tableLines maps the first word of each line of the sec/op table to the
// line.
func tableLines(s string) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "tsc-cycles/op") {
			break
		}
		if f := strings.Fields(l); len(f) > 0 {
			out[f[0]] = l
		}
	}
	return out
}

func checkRow(t *testing.T, r reports.CompareRow, w benchstatRow, line string) {
	t.Helper()
	if r.Old == nil || r.New == nil {
		t.Errorf("%s: tunelab has old %v, new %v; benchstat compares both", r.Name, r.Old, r.New)
		return
	}
	checkCenter(t, r.Name+" old", r.Old.Median*1e-9, w.old)
	checkCenter(t, r.Name+" new", r.New.Median*1e-9, w.new)
	checkPM(t, r.Name+" old", *r.Old, w.oldPM)
	checkPM(t, r.Name+" new", *r.New, w.newPM)
	if sig := r.Delta.P <= 0.05; sig != (w.delta != "~") {
		t.Errorf("%s: tunelab p=%.4f (significant: %v), benchstat %q", r.Name, r.Delta.P, sig, w.delta)
	}
	if w.delta != "~" {
		d, err := strconv.ParseFloat(strings.TrimSuffix(w.delta, "%"), 64)
		if err != nil || math.Abs(100*r.Delta.Pct-d) > 0.005+1e-9 {
			t.Errorf("%s: tunelab delta %+.4f%%, benchstat %s", r.Name, 100*r.Delta.Pct, w.delta)
		}
	}
	if math.Abs(r.Delta.P-w.p) > 0.0005+1e-12 || (!w.hasP && r.Delta.P != 0) {
		t.Errorf("%s: tunelab p=%.5f, benchstat %q", r.Name, r.Delta.P, w.pn)
	}
	if r.Old.N != w.n1 || r.New.N != w.n2 {
		t.Errorf("%s: tunelab n=%d+%d, benchstat %q", r.Name, r.Old.N, r.New.N, w.pn)
	}
	cells := regexp.MustCompile(`\s` + regexp.QuoteMeta(w.delta) + `\s+` + regexp.QuoteMeta("("+w.pn+")") + `$`)
	if !cells.MatchString(line) {
		t.Errorf("%s: tunelab's row %q does not end in benchstat's cells %q (%s)", r.Name, line, w.delta, w.pn)
	}
}

// checkCenter requires a median in seconds to round to benchstat's cell,
// e.g. "1.718µ": within half its last digit.
func checkCenter(t *testing.T, what string, sec float64, cell string) {
	t.Helper()
	num := strings.TrimRight(cell, "nµmk")
	scale := map[string]float64{"n": 1e-9, "µ": 1e-6, "m": 1e-3, "": 1, "k": 1e3}[cell[len(num):]]
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || scale == 0 {
		t.Fatalf("%s: benchstat cell %q: expected a number with an SI prefix", what, cell)
	}
	half := 0.5 * math.Pow(10, -float64(decimals(num))) * scale
	if math.Abs(sec-v*scale) > half*(1+1e-9) {
		t.Errorf("%s: tunelab median %.6g s, benchstat %s", what, sec, cell)
	}
}

// checkPM requires the interval's half-width (benchstat: the larger
// distance of a bound from the median, in percent) to round to benchstat's
// whole percent, and tunelab's cell to show it to a tenth.
func checkPM(t *testing.T, what string, s stats.Stat, cell string) {
	t.Helper()
	want, err := strconv.ParseFloat(strings.TrimSuffix(cell, "%"), 64)
	if err != nil {
		t.Fatalf("%s: benchstat range %q: expected a percentage", what, cell)
	}
	got := 100 * math.Max(s.Hi/s.Median-1, 1-s.Lo/s.Median)
	if math.Abs(got-want) > 0.5+1e-9 {
		t.Errorf("%s: tunelab interval ±%.2f%%, benchstat ± %s", what, got, cell)
	}
	if c := rangeCell(&s); c != fmt.Sprintf("± %.1f%%", got) {
		t.Errorf("%s: range cell %q, want ± %.1f%%", what, c, got)
	}
}

func decimals(num string) int {
	if i := strings.IndexByte(num, '.'); i >= 0 {
		return len(num) - i - 1
	}
	return 0
}
