package ct

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A Target is one operation the dynamic check measures.
type Target struct {
	// Name is what the worker resolves (see resolve).
	Name string
	// Kernel names what is measured ("keccak.x4", "mlkem768.decaps");
	// Variant and Size the production variant and the input size, for a
	// kernel.
	Kernel, Variant string
	Size            int
	// Classes says what the two classes are.
	Classes string
	// Variable, if set, says why the operation's time legitimately varies
	// between the classes: its |t| is reported, not a finding.
	Variable string
	// N is the number of measurements to take.
	N int
}

// init lets the harness's workers resolve target names.
func init() { harness.RegisterClassTargets(resolve) }

// Target names: "v|kernel|size|variant" for a registered variant,
// "op|operation|classes" for a whole operation (ops.go), "leak|fixture"
// for a planted leak (fixtures.go).
func variantTargetName(kernel string, size int, name string) string {
	return "v|" + kernel + "|" + strconv.Itoa(size) + "|" + name
}

// resolve returns the target named name with random inputs from seed.
func resolve(name string, seed uint64) (harness.ClassTarget, error) {
	parts := strings.Split(name, "|")
	rng := rand.New(rand.NewPCG(seed, 0x6374))
	switch {
	case parts[0] == "v" && len(parts) == 4:
		size, err := strconv.Atoi(parts[2])
		if err != nil {
			return nil, fmt.Errorf("class target %q: bad size: %w", name, err)
		}
		return newVariantTarget(parts[1], parts[3], size, rng)
	case parts[0] == "op" && len(parts) == 3:
		return newOpTarget(parts[1], parts[2], rng)
	case parts[0] == "leak" && len(parts) == 2:
		return newLeakTarget(parts[1], rng)
	}
	return nil, fmt.Errorf("unknown class target %q", name)
}

// A variantTarget measures one registered variant. Prepare makes two
// fresh instances (variant.Variant.New), one from the fixed seed and one
// from a fresh seed, in random order, and keeps the class's: the work
// before the timed call (allocation, filling, whatever New computes) is
// the same for both classes, only which instance is run differs. One Run
// of it is timed.
type variantTarget struct {
	v     *variant.Variant
	size  int
	fixed uint64
	rng   *rand.Rand
	in    variant.Instance
}

func newVariantTarget(kernel, name string, size int, rng *rand.Rand) (*variantTarget, error) {
	v := variant.Lookup(kernel, name)
	if v == nil || v.New == nil {
		return nil, fmt.Errorf("no variant %s of %s to measure", name, kernel)
	}
	if missing := harness.MissingFeatures(v); len(missing) > 0 {
		return nil, fmt.Errorf("variant %s of %s needs %s, which this CPU lacks", name, kernel, strings.Join(missing, ","))
	}
	return &variantTarget{v: v, size: size, fixed: rng.Uint64(), rng: rng}, nil
}

func (t *variantTarget) Prepare(class int) {
	seeds := [2]uint64{t.fixed, t.rng.Uint64()}
	var made [2]variant.Instance
	first := t.rng.IntN(2)
	for i := range 2 {
		c := first ^ i
		made[c] = t.v.New(t.size, seeds[c])
	}
	t.in = made[class]
}

func (t *variantTarget) Run() { t.in.Run(1) }
