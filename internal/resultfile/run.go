package resultfile

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/tunelab/tunelab/kernels/cpu"
)

// A Run is what a result file records about the run that wrote it, in
// config lines (see HostConfig) and segment lines.
type Run struct {
	RunID, Date string
	TSCHz       float64
	// Rule describes the decision rule reports apply to the run's samples
	// (written as the decision-rule config); "" leaves it out.
	Rule string
	// Floor states the layout floor the run's race and rule use, as
	// written in the layout-floor config ("0.4% (calib copies: ...)");
	// "" leaves it out.
	Floor string
	// Segment numbers the writing sessions of the run: 1 for a new file,
	// one more than the file's last for each --resume. Readers use run-id
	// and segment to tell a resumed run from a copy of the same data.
	Segment int
	// Selection holds the config lines of the sweep's selection, written
	// with every result; nil writes none.
	Selection [][2]string
}

// LayoutFloorKey is the config key of the layout floor a run used: the
// largest difference measured between byte-identical copies of one
// function at other addresses, below which a margin is no win.
const LayoutFloorKey = "layout-floor"

// IdentityKeys are the config keys HostConfig writes that must not change
// within one run-id: a result file whose run changes one of them mid-file
// is refused (reports) and cannot be resumed (sweep).
var IdentityKeys = []string{"goos", "goarch", "cpu", "cpu-vendor", "cpu-family", "cpu-model", "cpu-stepping",
	"uarch", "dispatch-key", "features", "feature-level", "go", "tunelab", "date", "tsc-hz", "decision-rule"}

// HostConfig returns the config lines (key, value) that make a result
// file self-describing: host identity (TUNELAB_CPU masks applied), Go
// and tunelab versions, the run's identity and its selection. "pkg" is
// left empty: each result names its package (Sample.Config).
func HostConfig(run Run) [][2]string {
	c := cpu.Host()
	cfg := [][2]string{
		{"goos", runtime.GOOS}, {"goarch", runtime.GOARCH}, {"pkg", ""},
		{"cpu", strings.TrimSpace(c.Brand)}, {"cpu-vendor", c.Vendor},
		{"cpu-family", fmt.Sprintf("%#x", c.Family)}, {"cpu-model", fmt.Sprintf("%#x", c.Model)},
		{"cpu-stepping", strconv.Itoa(c.Stepping)}, {"uarch", c.Uarch()}, {"dispatch-key", c.Key()},
		{"features", strings.Join(c.FeatureList(), ",")}, {"feature-level", c.Level()},
		{"go", runtime.Version()}, {"tunelab", Version()}, {"run-id", run.RunID}, {"date", run.Date},
		{"tsc-hz", fmt.Sprintf("%.0f", run.TSCHz)},
	}
	for _, kv := range [][2]string{{"decision-rule", run.Rule}, {LayoutFloorKey, run.Floor}} {
		if kv[1] != "" {
			cfg = append(cfg, kv)
		}
	}
	return append(cfg, run.Selection...)
}

// HostIdentityConfig returns the identity config (IdentityKeys) a run
// started now on this host by this tunelab would write, without the
// run-specific date and tsc-hz: what a resumed run compares a file with.
func HostIdentityConfig(rule string) [][2]string {
	var out [][2]string
	for _, kv := range HostConfig(Run{Rule: rule}) {
		if slices.Contains(IdentityKeys, kv[0]) && kv[0] != "date" && kv[0] != "tsc-hz" {
			out = append(out, kv)
		}
	}
	return out
}

// RunOf returns the run identity a result's config records (Segment and
// Selection are not config of the run's identity: they are left zero).
func RunOf(res *benchfmt.Result) Run {
	r := Run{RunID: res.GetConfig("run-id"), Date: res.GetConfig("date"),
		Rule: res.GetConfig("decision-rule"), Floor: res.GetConfig(LayoutFloorKey)}
	r.TSCHz, _ = strconv.ParseFloat(res.GetConfig("tsc-hz"), 64)
	return r
}

// Version returns the tunelab version and VCS commit, as far as the build
// recorded them.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += "+" + s.Value[:12]
		}
		if s.Key == "vcs.modified" && s.Value == "true" {
			v += "-dirty"
		}
	}
	return v
}

// A RunIdentity holds a run's identity config (IdentityKeys) as its first
// result fixed it, with the file:line that did: readers of result files
// (sweep --resume, reports) hold every later result of the run to it.
type RunIdentity map[string]ConfigAt

// A ConfigAt is a config value and the file:line that set it.
type ConfigAt struct{ Value, At string }

// Check records the identity of the run's first result and refuses, with
// at (file:line), a later result that changes one of IdentityKeys.
func (id RunIdentity) Check(res *benchfmt.Result, at string) error {
	return id.CheckKeys(res, at, IdentityKeys)
}

// CheckKeys records the values of keys of the run's first result and
// refuses a later result that changes one.
func (id RunIdentity) CheckKeys(res *benchfmt.Result, at string, keys []string) error {
	for _, key := range keys {
		v := res.GetConfig(key)
		if first, ok := id[key]; !ok {
			id[key] = ConfigAt{v, at}
		} else if first.Value != v {
			return fmt.Errorf("%s: %s changed from %q (set at %s) to %q within run %s: a run's identity is fixed", at, key, first.Value, first.At, v, res.GetConfig("run-id"))
		}
	}
	return nil
}
