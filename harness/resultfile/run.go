package resultfile

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"

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
	// VariantSet fingerprints the variants the writing tunelab has (see
	// VariantSetFingerprint), written as the variant-set config; ""
	// leaves it out.
	VariantSet string
}

// VariantSetKey is the config key of a run's variant-set fingerprint:
// with the tunelab config's commit, a file's vintage.
const VariantSetKey = "variant-set"

// VariantSetFingerprint returns the fingerprint of a set of variants
// given as "kernel variant" names: "sha256:<16 hex digits> n=<count>"
// of the sorted names, one per line. Two builds with the same variant
// names have the same fingerprint, whatever else differs.
func VariantSetFingerprint(names []string) string {
	sorted := slices.Sorted(slices.Values(names))
	h := sha256.New()
	for _, n := range sorted {
		h.Write([]byte(n + "\n"))
	}
	return fmt.Sprintf("sha256:%x n=%d", h.Sum(nil)[:8], len(sorted))
}

// LayoutFloorKey is the config key of the layout floor a run used: the
// largest difference measured between byte-identical copies of one
// function at other addresses, below which a margin is no win.
const LayoutFloorKey = "layout-floor"

// IdentityKeys are the config keys HostConfig writes that must not change
// within one run-id: a result file whose run changes one of them mid-file
// is refused (reports) and cannot be resumed (sweep).
var IdentityKeys = []string{"goos", "goarch", "cpu", "cpu-vendor", "cpu-family", "cpu-model", "cpu-stepping",
	"uarch", "dispatch-key", "features", "feature-level", "go", "tunelab", VariantSetKey, "date", "tsc-hz", "decision-rule"}

// HostConfig returns the config lines (key, value) that make a result
// file self-describing: host identity (TUNELAB_CPU masks applied), Go
// and tunelab versions, the run's identity and its selection. "pkg" is
// left empty: each result names its package (Sample.Config).
func HostConfig(run Run) [][2]string {
	c := cpu.Host()
	cfg := [][2]string{
		{"goos", runtime.GOOS}, {"goarch", runtime.GOARCH}, {"pkg", ""},
		{"cpu", cpuName(c)}, {"cpu-vendor", c.Vendor},
		{"cpu-family", fmt.Sprintf("%#x", c.Family)}, {"cpu-model", fmt.Sprintf("%#x", c.Model)},
		{"cpu-stepping", strconv.Itoa(c.Stepping)}, {"uarch", c.Uarch()}, {"dispatch-key", c.Key()},
		{"features", strings.Join(c.FeatureList(), ",")}, {"feature-level", c.Level()},
		{"go", runtime.Version()}, {"tunelab", Version()}, {"run-id", run.RunID}, {"date", run.Date},
		{"tsc-hz", fmt.Sprintf("%.0f", run.TSCHz)},
	}
	for _, kv := range [][2]string{{VariantSetKey, run.VariantSet}, {"decision-rule", run.Rule}, {LayoutFloorKey, run.Floor}} {
		if kv[1] != "" {
			cfg = append(cfg, kv)
		}
	}
	return append(cfg, run.Selection...)
}

// cpuName is the "cpu" config value: the CPU's brand string, or for a
// CPU without one (some emulators and hypervisors report none) its
// vendor, family, model and stepping, so that the line is never empty.
func cpuName(c *cpu.CPU) string {
	if brand := strings.TrimSpace(c.Brand); brand != "" {
		return brand
	}
	vendor := c.Vendor
	if vendor == "" {
		vendor = "unknown vendor"
	}
	return fmt.Sprintf("%s family %#x model %#x stepping %d", vendor, c.Family, c.Model, c.Stepping)
}

// HostIdentityConfig returns the identity config (IdentityKeys) a run
// started now on this host by this tunelab would write, without the
// run-specific date and tsc-hz: what a resumed run compares a file with.
func HostIdentityConfig(rule, variantSet string) [][2]string {
	var out [][2]string
	for _, kv := range HostConfig(Run{Rule: rule, VariantSet: variantSet}) {
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

// Version returns the tunelab version and VCS commit: the module version
// and the revision the build recorded ("devel+71ac9aa1b2c3", "-dirty"
// with uncommitted changes), else, for a build that recorded none (`go
// run`, -buildvcs=false), the commit of the checkout in or above the
// working directory whose go.mod is tunelab's, as git reports it; "devel"
// alone when neither is known.
func Version() string {
	versionOnce.Do(func() { version = findVersion() })
	return version
}

var (
	versionOnce sync.Once
	version     string
)

func findVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = true
		}
	}
	if rev == "" && v == "devel" {
		rev, dirty = checkoutRevision(bi.Main.Path)
	}
	if len(rev) >= 12 {
		v += "+" + rev[:12]
		if dirty {
			v += "-dirty"
		}
	}
	return v
}

// checkoutRevision returns the commit of the checkout of module that
// holds the working directory, and whether tracked files differ from it;
// "" when there is none or git cannot tell.
func checkoutRevision(module string) (string, bool) {
	dir, ok := moduleRoot(module)
	if !ok {
		return "", false
	}
	out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	rev := strings.TrimSpace(string(out))
	if err != nil || len(rev) != 40 || strings.Trim(rev, "0123456789abcdef") != "" {
		return "", false
	}
	st, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=no").Output()
	return rev, err != nil || len(bytes.TrimSpace(st)) > 0
}

// moduleRoot returns the folder in or above the working directory whose
// go.mod declares module.
func moduleRoot(module string) (string, bool) {
	if module == "" {
		return "", false
	}
	dir, err := os.Getwd()
	for err == nil {
		if data, rerr := os.ReadFile(filepath.Join(dir, "go.mod")); rerr == nil {
			return dir, modfileModule(data) == module
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", false
}

// modfileModule returns the module path a go.mod declares.
func modfileModule(data []byte) string {
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
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
