package poly1305

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/poly1305"
	"golang.org/x/sys/unix"
)

// TestMeasureCrossover prints, per size, the time per byte of x/crypto,
// the dispatched Sum and every non-sweep variant, and the best variant.
// It measures thread CPU time over many short bursts and keeps the
// fastest burst, which is robust on a loaded machine. It runs only with
// TUNELAB_POLY1305_MEASURE=1 (or a variant pattern to restrict it);
// TUNELAB_POLY1305_SIZES=384,512 replaces the kernel's sizes.
func TestMeasureCrossover(t *testing.T) {
	pat := os.Getenv("TUNELAB_POLY1305_MEASURE")
	if pat == "" {
		t.Skip("set TUNELAB_POLY1305_MEASURE=1 (or a substring of variant names) to measure")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	rng := rand.New(rand.NewPCG(1, 1))
	key := randKey(rng)
	var sb strings.Builder
	for _, size := range measureSizes(t) {
		m := make([]byte, size)
		fill(rng, m)
		var tag [16]byte
		type res struct {
			name string
			ns   float64
		}
		var rs []res
		add := func(name string, f func()) { rs = append(rs, res{name, burstMin(f, size)}) }
		add("ext=xcrypto", func() { poly1305.Sum(&tag, m, key) })
		add("dispatch", func() { Sum(&tag, m, key) })
		for _, im := range runnable(t) {
			if !im.OffsetSweep && (pat == "1" || strings.Contains(im.Name, pat)) {
				add(im.Name, func() { im.sum(&tag, m, key) })
			}
		}
		x := rs[0].ns
		sort.Slice(rs, func(i, j int) bool { return rs[i].ns < rs[j].ns })
		fmt.Fprintf(&sb, "size=%d: x/crypto %.3f ns/B (%.3f c/B at 2.6 GHz)\n", size, x/float64(size), 2.6*x/float64(size))
		for i, r := range rs {
			if i < 6 || r.name == "dispatch" || r.name == "ext=xcrypto" || r.name == generic.Name {
				fmt.Fprintf(&sb, "  %-68s %9.1f ns  %6.3f c/B  x%.2f\n", r.name, r.ns, 2.6*r.ns/float64(size), x/r.ns)
			}
		}
	}
	t.Log("\n" + sb.String())
}

// burstMin returns the smallest thread CPU time per call of f over bursts
// of roughly 100 µs, alternating 30 bursts.
func burstMin(f func(), size int) float64 {
	n := max(1, 100_000/(size/2+50))
	best := 1e18
	for b := 0; b < 30; b++ {
		t0 := threadNanos()
		for i := 0; i < n; i++ {
			f()
		}
		if d := float64(threadNanos()-t0) / float64(n); d < best {
			best = d
		}
	}
	return best
}

func threadNanos() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return time.Now().UnixNano()
	}
	return ts.Nano()
}

func measureSizes(t *testing.T) []int {
	env := os.Getenv("TUNELAB_POLY1305_SIZES")
	if env == "" {
		return sizes
	}
	var out []int
	for _, f := range strings.Split(env, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			t.Fatalf("TUNELAB_POLY1305_SIZES: bad size %q", f)
		}
		out = append(out, n)
	}
	return out
}
