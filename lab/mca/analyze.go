package mca

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// MinVersion is the oldest LLVM major version whose llvm-mca is used: 19
// models znver4, znver5 and sapphirerapids and has
// --skip-unsupported-instructions, which Analyze relies on.
const MinVersion = 19

// InstallHint says how to get llvm-mca with Zen 4 support on Debian.
const InstallHint = "install LLVM 19: apt-get update && apt-get install -y llvm-19 (provides llvm-mca-19)"

// Find returns the newest llvm-mca of LLVM MinVersion or later on PATH:
// llvm-mca-N with the highest N >= MinVersion, else the unversioned
// llvm-mca if its --version reports such a version. The error names the
// older ones it passed over.
func Find() (string, error) { return findIn(os.Getenv("PATH")) }

// versioned matches the name of a versioned llvm-mca executable.
var versioned = regexp.MustCompile(`^llvm-mca-([0-9]+)$`)

// findIn is Find over the directories of the PATH-style list path.
func findIn(path string) (string, error) {
	best, old := newestVersioned(path)
	if best != "" {
		return best, nil
	}
	if p, err := lookIn(path, "llvm-mca"); err == nil {
		v, desc := llvmVersion(p)
		if v >= MinVersion {
			return p, nil
		}
		old = append(old, fmt.Sprintf("%s (%s)", p, desc))
	}
	if len(old) > 0 {
		return "", fmt.Errorf("llvm-mca %d or newer not found (too old: %s); %s", MinVersion, strings.Join(old, ", "), InstallHint)
	}
	return "", fmt.Errorf("llvm-mca %d or newer not found on PATH; %s", MinVersion, InstallHint)
}

// newestVersioned returns the llvm-mca-N on path with the highest
// N >= MinVersion ("" if none) and lists the older ones it found.
func newestVersioned(path string) (best string, old []string) {
	bestV := 0
	for _, dir := range searchDirs(path) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			m := versioned.FindStringSubmatch(e.Name())
			if m == nil {
				continue
			}
			p, err := lookIn(dir, e.Name())
			v, _ := strconv.Atoi(m[1])
			switch {
			case err != nil:
			case v < MinVersion:
				old = append(old, p)
			case v > bestV:
				best, bestV = p, v
			}
		}
	}
	return best, old
}

// searchDirs splits a PATH-style list, dropping relative entries (as
// exec.LookPath refuses programs found through them).
func searchDirs(path string) []string {
	var out []string
	for _, dir := range filepath.SplitList(path) {
		if filepath.IsAbs(dir) {
			out = append(out, dir)
		}
	}
	return out
}

// lookIn returns the path of the executable name in the PATH-style list
// dirs, the first found.
func lookIn(dirs, name string) (string, error) {
	for _, dir := range searchDirs(dirs) {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found", name)
}

// llvmLine matches the version line of `llvm-mca --version`
// ("Debian LLVM version 14.0.6", "LLVM version 19.1.7").
var llvmLine = regexp.MustCompile(`LLVM version ([0-9]+)(\.[0-9.]+)?`)

// llvmVersion runs bin --version and returns the LLVM major version (0 if
// unknown) and a description for messages.
func llvmVersion(bin string) (int, string) {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return 0, fmt.Sprintf("--version failed: %v", err)
	}
	m := llvmLine.FindStringSubmatch(string(out))
	if m == nil {
		return 0, "unknown version"
	}
	v, _ := strconv.Atoi(m[1])
	return v, "LLVM " + m[1] + m[2]
}

// A Prediction is llvm-mca's steady-state estimate for one loop body on one
// CPU model.
type Prediction struct {
	MCPU             string   `json:"mcpu"`
	Instructions     int      `json:"instructions"` // per iteration
	CyclesPerIter    float64  `json:"cycles_per_iter"`
	IPC              float64  `json:"ipc"`
	BlockRThroughput float64  `json:"block_rthroughput"`
	Bottleneck       string   `json:"bottleneck"`
	Unsupported      []string `json:"unsupported,omitempty"` // instructions llvm-mca did not model
}

// Iterations is how many loop iterations llvm-mca simulates.
const Iterations = 200

// Analyze runs llvm-mca on asm for mcpu. Instructions the model lacks are
// skipped and listed in Unsupported rather than failing the analysis.
func Analyze(ctx context.Context, bin, asm, mcpu string) (*Prediction, error) {
	out, stderr, err := runMCA(ctx, bin, asm, mcpu, false)
	var unsupported []string
	if err != nil {
		if len(unsupportedInstrs(stderr)) == 0 {
			return nil, fmt.Errorf("llvm-mca -mcpu=%s: %v: %s", mcpu, err, firstLines(stderr, 3))
		}
		out, stderr, err = runMCA(ctx, bin, asm, mcpu, true)
		if err != nil {
			return nil, fmt.Errorf("llvm-mca -mcpu=%s: %v: %s", mcpu, err, firstLines(stderr, 3))
		}
		unsupported = unsupportedInstrs(stderr)
	}
	p, err := parseJSON(out)
	if err != nil {
		return nil, fmt.Errorf("llvm-mca -mcpu=%s: %w", mcpu, err)
	}
	p.MCPU, p.Unsupported = mcpu, unsupported
	return p, nil
}

func runMCA(ctx context.Context, bin, asm, mcpu string, skip bool) ([]byte, string, error) {
	args := []string{"-mtriple=x86_64-unknown-linux-gnu", "-mcpu=" + mcpu,
		fmt.Sprintf("-iterations=%d", Iterations), "--json"}
	if skip {
		args = append(args, "--skip-unsupported-instructions=any")
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdin = strings.NewReader(asm)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.Bytes(), stderr.String(), err
}

var unsupportedLine = regexp.MustCompile(`(?m)^note: instruction:\s*(.+)$`)

// unsupportedInstrs lists the instructions llvm-mca complained about.
func unsupportedInstrs(stderr string) []string {
	var out []string
	for _, m := range unsupportedLine.FindAllStringSubmatch(stderr, -1) {
		out = append(out, strings.Join(strings.Fields(m[1]), " "))
	}
	return out
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "; ")
}

// mcaJSON is the subset of llvm-mca's --json output used here.
type mcaJSON struct {
	CodeRegions []struct {
		SummaryView struct {
			BlockRThroughput float64
			DispatchWidth    float64
			IPC              float64
			Instructions     int
			Iterations       int
			TotalCycles      float64
			TotaluOps        float64
		}
		ResourcePressureView struct {
			ResourcePressureInfo []struct {
				InstructionIndex int
				ResourceIndex    int
				ResourceUsage    float64
			}
		}
	}
	TargetInfo struct {
		CPUName   string
		Resources []string
	}
}

func parseJSON(out []byte) (*Prediction, error) {
	var j mcaJSON
	if err := json.Unmarshal(out, &j); err != nil {
		return nil, fmt.Errorf("parsing JSON output: %w", err)
	}
	if len(j.CodeRegions) == 0 || j.CodeRegions[0].SummaryView.Iterations == 0 {
		return nil, fmt.Errorf("no code region in output")
	}
	r := j.CodeRegions[0]
	s := r.SummaryView
	p := &Prediction{
		Instructions:     s.Instructions / s.Iterations,
		CyclesPerIter:    s.TotalCycles / float64(s.Iterations),
		IPC:              s.IPC,
		BlockRThroughput: s.BlockRThroughput,
	}
	// Entries per instruction, then one totals row with InstructionIndex
	// equal to the instruction count; sum the former only.
	pressure := map[int]float64{}
	for _, u := range r.ResourcePressureView.ResourcePressureInfo {
		if u.InstructionIndex < p.Instructions {
			pressure[u.ResourceIndex] += u.ResourceUsage
		}
	}
	p.Bottleneck = bottleneck(p, pressure, j.TargetInfo.Resources, s.TotaluOps/float64(s.Iterations), s.DispatchWidth)
	return p, nil
}

// bottleneck names what limits the loop: the most pressured resource when
// its cycles per iteration account for the loop's, the dispatch width when
// that does, else a dependency chain.
func bottleneck(p *Prediction, pressure map[int]float64, names []string, uopsPerIter, width float64) string {
	type res struct {
		name string
		load float64
	}
	var rs []res
	for i, v := range pressure {
		name := fmt.Sprint(i)
		if i < len(names) {
			name = strings.Map(printable, names[i])
		}
		rs = append(rs, res{name, v})
	}
	sort.Slice(rs, func(i, j int) bool {
		return rs[i].load > rs[j].load || rs[i].load == rs[j].load && rs[i].name < rs[j].name
	})
	switch {
	case len(rs) > 0 && rs[0].load >= 0.9*p.CyclesPerIter:
		return fmt.Sprintf("port %s (%.1f cycles/iter)", rs[0].name, rs[0].load)
	case width > 0 && uopsPerIter/width >= 0.9*p.CyclesPerIter:
		return fmt.Sprintf("dispatch width (%.1f uops/iter at %g/cycle)", uopsPerIter, width)
	default:
		return "dependency chain (latency-bound)"
	}
}

// printable turns the unit-index bytes llvm-mca puts in resource names
// ("Zn4FP45.\x01") into digits.
func printable(r rune) rune {
	if r < 0x0a {
		return '0' + r
	}
	if r < 0x20 {
		return -1
	}
	return r
}
