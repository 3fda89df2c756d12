package aesecb

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tunelab/tunelab/kernels/variant"
)

// TestMeasure is a quick interleaved throughput comparison for a shared,
// noisy machine (set AESECB_MEASURE=1): every round runs each candidate
// once per size in random order and the table reports the fastest and the
// median of the rounds, in MB/s, with ratios of the fastest against the
// crypto/aes block loop and crypto/cipher CTR measured in the same rounds.
// AESECB_BENCH_VARIANTS picks the variants as for the benchmarks,
// AESECB_MEASURE_KERNELS the kernels (default: the encryption kernels),
// AESECB_MEASURE_SIZES the sizes.
func TestMeasure(t *testing.T) {
	if os.Getenv("AESECB_MEASURE") == "" {
		t.Skip("set AESECB_MEASURE=1 to measure")
	}
	for _, k := range kernels {
		if names := os.Getenv("AESECB_MEASURE_KERNELS"); names == "" && k.dec || names != "" && !strings.Contains(names, k.name) {
			continue
		}
		measureKernel(t, k)
	}
}

type candidate struct {
	name string
	run  func(n int) // n ops on the prepared input
}

func measureKernel(t *testing.T, k *kernel) {
	for _, size := range measureSizes() {
		cands := measureCandidates(k, size)
		ns := make([][]float64, len(cands))
		rng := rand.New(rand.NewPCG(uint64(size), 1))
		for round := 0; round < 25; round++ {
			for _, i := range rng.Perm(len(cands)) {
				ns[i] = append(ns[i], timeOp(cands[i].run, size))
			}
		}
		best := func(i int) float64 { return slices.Min(ns[i]) }
		block, ctr := best(len(cands)-2), best(len(cands)-1)
		var b strings.Builder
		fmt.Fprintf(&b, "%s size=%d\n", k.name, size)
		for i, c := range cands {
			slices.Sort(ns[i])
			fmt.Fprintf(&b, "  %-70s best %8.0f MB/s  median %8.0f MB/s  x%.2f block  x%.2f ctr\n",
				c.name, float64(size)/best(i)*1e3, float64(size)/ns[i][len(ns[i])/2]*1e3, block/best(i), ctr/best(i))
		}
		t.Log(b.String())
	}
}

// timeOp returns ns per op of run over about 100 µs of work.
func timeOp(run func(int), size int) float64 {
	n := max(1, 200000/(size+64))
	start := time.Now()
	run(n)
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}

// measureCandidates returns the selected runnable variants, then the block
// loop and CTR baselines (last two).
func measureCandidates(k *kernel, size int) []candidate {
	var out []candidate
	for _, v := range variant.Variants(k.name) {
		if v.IsGeneric() || v.OffsetSweep || missingFeature(v.Features) != "" || !benchSelected(v.Name) {
			continue
		}
		out = append(out, candidate{v.Name, v.New(size, 1).Run})
	}
	blk, err := aes.NewCipher(make([]byte, k.bits/8))
	if err != nil {
		panic(err)
	}
	src, dst := make([]byte, size), make([]byte, size)
	stream := cipher.NewCTR(blk, make([]byte, 16))
	crypt := blk.Encrypt
	if k.dec {
		crypt = blk.Decrypt
	}
	out = append(out, candidate{"ext=stdblock", func(n int) {
		for range n {
			for j := 0; j < size; j += 16 {
				crypt(dst[j:], src[j:])
			}
		}
	}}, candidate{"ext=stdctr", func(n int) {
		for range n {
			stream.XORKeyStream(dst, src)
		}
	}})
	return out
}

// measureSizes returns AESECB_MEASURE_SIZES (comma-separated) or sizes.
func measureSizes() []int {
	env := os.Getenv("AESECB_MEASURE_SIZES")
	if env == "" {
		return sizes
	}
	var out []int
	for _, f := range strings.Split(env, ",") {
		var n int
		fmt.Sscan(f, &n)
		out = append(out, n)
	}
	return out
}
