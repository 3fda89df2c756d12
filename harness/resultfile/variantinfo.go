package resultfile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// KindVariant is the kind of the harness line that describes a variant:
// "variant KERNEL LABEL features=F code-bytes=N [FLAG...]", written by a
// sweep once per segment before the variant's first result. It records
// what a decision about the variant uses besides its samples, so that
// the decision is a function of the file and not of the binary that
// reads it: F is the comma-separated features it needs ("-" for none),
// N the size of its generated function in the binary that measured it
// (0 when it has none: Go code), and the flags are external (a
// reference of another module, never dispatched), offset-sweep (an
// align=64+N copy for tunelab align) and operation (a whole operation,
// never dispatched itself).
const KindVariant = "variant"

// MaxCodeBytes bounds a recorded code size (the largest generated
// function is tens of kilobytes).
const MaxCodeBytes = 1 << 24

// A VariantInfo is what a result file records of one variant of one
// kernel besides its samples (a "variant" harness line).
type VariantInfo struct {
	Kernel string
	// Label is the contender's label: the variant's name (with
	// "/arm=b" when a variant races itself).
	Label string
	// Features are the CPU features the variant needs, sorted.
	Features []string
	// CodeBytes is the size of its generated function in the binary
	// that measured it, 0 when it has none.
	CodeBytes                        int
	External, OffsetSweep, Operation bool
}

// variantFlags are the flag words of a variant line, in the order written.
var variantFlags = []string{"external", "offset-sweep", "operation"}

// flags returns the flag words that v sets.
func (v *VariantInfo) flags() []string {
	var out []string
	for i, set := range []bool{v.External, v.OffsetSweep, v.Operation} {
		if set {
			out = append(out, variantFlags[i])
		}
	}
	return out
}

// args returns the line's fields after its kind.
func (v *VariantInfo) args() []string {
	fs := "-"
	if len(v.Features) > 0 {
		fs = strings.Join(v.Features, ",")
	}
	return append([]string{v.Kernel, v.Label, "features=" + fs, "code-bytes=" + strconv.Itoa(v.CodeBytes)}, v.flags()...)
}

// check returns an error saying what was expected unless v can be
// written and read back: kernel and label without spaces, features of
// the shape CheckFeatures accepts, a code size in [0, MaxCodeBytes].
func (v *VariantInfo) check() error {
	switch {
	case !plainWord(v.Kernel):
		return fmt.Errorf("expected a kernel name without spaces, got %q", v.Kernel)
	case !plainWord(v.Label):
		return fmt.Errorf("expected a variant label without spaces, got %q", v.Label)
	case v.CodeBytes < 0 || v.CodeBytes > MaxCodeBytes:
		return fmt.Errorf("expected code-bytes between 0 and %d, got %d", MaxCodeBytes, v.CodeBytes)
	}
	if len(v.Features) > 0 {
		return CheckFeatures(strings.Join(v.Features, ","))
	}
	return nil
}

// plainWord reports whether s is 1 to 512 printable ASCII characters
// other than space.
func plainWord(s string) bool {
	if s == "" || len(s) > 512 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// parseVariant parses the fields of a variant line (split into at most
// 4: kind, kernel, label, the rest).
func parseVariant(fields []string) (*VariantInfo, error) {
	if len(fields) < 4 {
		return nil, fmt.Errorf("expected %q, got %q", "variant <kernel> <label> features=<list> code-bytes=<n> [flags]", strings.Join(fields, " "))
	}
	v := &VariantInfo{Kernel: fields[1], Label: fields[2], CodeBytes: -1}
	var seenFeatures bool
	for _, w := range strings.Fields(fields[3]) {
		if err := v.setWord(w, &seenFeatures); err != nil {
			return nil, err
		}
	}
	if !seenFeatures || v.CodeBytes < 0 {
		return nil, fmt.Errorf("expected features= and code-bytes= in variant line of %s %s", v.Kernel, v.Label)
	}
	if err := v.check(); err != nil {
		return nil, err
	}
	return v, nil
}

// setWord applies one word of a variant line's rest.
func (v *VariantInfo) setWord(w string, seenFeatures *bool) error {
	if fs, ok := strings.CutPrefix(w, "features="); ok {
		*seenFeatures = true
		if fs != "-" {
			v.Features = strings.Split(fs, ",")
			slices.Sort(v.Features)
		}
		return nil
	}
	if n, ok := strings.CutPrefix(w, "code-bytes="); ok {
		c, err := strconv.Atoi(n)
		if err != nil || c < 0 || c > MaxCodeBytes {
			return fmt.Errorf("expected code-bytes between 0 and %d, got %q", MaxCodeBytes, n)
		}
		v.CodeBytes = c
		return nil
	}
	switch w {
	case "external":
		v.External = true
	case "offset-sweep":
		v.OffsetSweep = true
	case "operation":
		v.Operation = true
	default:
		return fmt.Errorf("expected a flag (%s), got %q", strings.Join(variantFlags, ", "), w)
	}
	return nil
}

// KindQuality is the kind of the harness line a sweep writes when it
// finishes a group: "quality GROUP attempts=A discarded=D kept-disturbed=K
// stop=WHY", the measurement attempts of all its arms, those thrown away
// as disturbed, the disturbed samples kept (a busy host: the group
// switched to keeping them), and why measuring stopped (settled,
// one-arm-left, budget, ...: spaces as "-"). Readers judge from it
// whether a decision rests on a busy or short measurement (Quality.Busy,
// Quality.Short).
const KindQuality = "quality"

// A Quality is what a quality line records of one group.
type Quality struct {
	Group                              string
	Attempts, Discarded, KeptDisturbed int
	Stop                               string
}

// BusyShare is the share of disturbed attempts (discarded, or kept as
// disturbed) above which a group counts as measured on a busy host.
const BusyShare = 0.2

// Busy reports whether the group was measured on a busy host: more than
// BusyShare of its attempts were disturbed.
func (q *Quality) Busy() bool {
	return q.Attempts > 0 && float64(q.Discarded+q.KeptDisturbed) > BusyShare*float64(q.Attempts)
}

// Short reports whether the group's measurement was cut by the sweep's
// budget before the race settled.
func (q *Quality) Short() bool { return q.Stop == "budget" }

// String describes the quality: "12% of 400 attempts discarded, 3
// disturbed samples kept, stopped: budget".
func (q *Quality) String() string {
	s := fmt.Sprintf("%d of %d attempts discarded as disturbed", q.Discarded, q.Attempts)
	if q.KeptDisturbed > 0 {
		s += fmt.Sprintf(", %d disturbed samples kept", q.KeptDisturbed)
	}
	return s + ", stopped: " + q.Stop
}

func (q *Quality) args() []string {
	return []string{q.Group, "attempts=" + strconv.Itoa(q.Attempts), "discarded=" + strconv.Itoa(q.Discarded),
		"kept-disturbed=" + strconv.Itoa(q.KeptDisturbed), "stop=" + strings.ReplaceAll(q.Stop, " ", "-")}
}

// parseQuality parses the fields of a quality line.
func parseQuality(fields []string) (*Quality, error) {
	shape := "quality <group> attempts=<n> discarded=<n> kept-disturbed=<n> stop=<why>"
	if len(fields) < 4 {
		return nil, fmt.Errorf("expected %q, got %q", shape, strings.Join(fields, " "))
	}
	q := &Quality{Group: fields[1]}
	words := append([]string{fields[2]}, strings.Fields(fields[3])...)
	ints := map[string]*int{"attempts": &q.Attempts, "discarded": &q.Discarded, "kept-disturbed": &q.KeptDisturbed}
	seen := 0
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		switch p := ints[k]; {
		case !ok:
			return nil, fmt.Errorf("expected %q, got %q", shape, strings.Join(fields, " "))
		case k == "stop":
			q.Stop = strings.ReplaceAll(v, "-", " ")
		case p != nil:
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("expected a count for %s, got %q", k, v)
			}
			*p = n
		default:
			return nil, fmt.Errorf("expected %q, got %q", shape, strings.Join(fields, " "))
		}
		seen++
	}
	if seen != 4 || q.Stop == "" || q.Discarded > q.Attempts {
		return nil, fmt.Errorf("expected %q with discarded <= attempts, got %q", shape, strings.Join(fields, " "))
	}
	return q, nil
}
