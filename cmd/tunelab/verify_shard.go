package main

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/cpu"
)

// A shard splits the lab variants among the emulated tiers that run
// verify alongside each other (.ci/matrix's Bochs tiers), so that each
// is executed once there rather than on every tier: shard K of N keeps
// every production variant (what a compiled table entry or default can
// select: every tier checks what ships), every lab variant that needs a
// feature beyond the tiers' common features (it runs where it can: the
// other tiers skip it), and of the lab variants every tier can run, those
// whose name hashes to K.
type shard struct {
	k, n   int
	common []string // the features every tier sharing the work has
	// above, if set, leaves out the lab variants that need no feature
	// beyond this level's (and the common features): the tiers of that
	// level verify them (.ci/matrix's QEMU AVX2 tier, the host).
	above []string
}

// parseShard parses --shard "K/N" with --shard-common's feature list and
// --lab-above's level.
func parseShard(spec, common, above string) (*shard, error) {
	if spec == "" {
		if common != "" || above != "" {
			return nil, usagef("verify: --shard-common and --lab-above apply to --shard; none given")
		}
		return nil, nil
	}
	ks, ns, ok := strings.Cut(spec, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 0 || k >= n {
		return nil, usagef("verify: --shard %q: want K/N with 0 <= K < N", spec)
	}
	fs := cpu.SplitList(common)
	if len(fs) == 0 {
		return nil, usagef("verify: --shard needs --shard-common: the features every tier sharing the work has")
	}
	if _, unknown := cpu.CanonicalFeatures(fs); len(unknown) > 0 {
		return nil, usagef("verify: --shard-common: features %v unknown to kernels/cpu", unknown)
	}
	s := &shard{k: k, n: n, common: fs}
	if above != "" {
		c, err := cpu.LevelCPU(above)
		if err != nil || cpu.LevelRank(above) < 2 {
			return nil, usagef("verify: --lab-above %q: want a feature level x86-64-v2, -v3 or -v4", above)
		}
		s.above = c.FeatureList()
	}
	return s, nil
}

// filter returns the tasks of this shard and how many lab variants it
// leaves to the other shards. A lab variant the common features would
// run that this host cannot run is an error: --shard-common names a
// feature this tier lacks, and the variant would run on no tier.
func (s *shard) filter(tasks []harness.VerifyTask) ([]harness.VerifyTask, int, error) {
	prod := productionVariants()
	var out []harness.VerifyTask
	left := 0
	for _, t := range tasks {
		name := t.Kernel.Name + " " + t.Variant.Name
		switch {
		case prod[t.Kernel.Name][t.Variant.Name]:
			out = append(out, t)
		case s.above != nil && subset(t.Variant.Features, append(s.above, nonVector(s.common)...)):
			left++ // the lower tiers verify it
		case !subset(t.Variant.Features, s.common):
			out = append(out, t)
		case t.Skip != "":
			return nil, 0, fmt.Errorf("verify: --shard-common %s claims every tier runs %s, but this host skips it (%s): fix --shard-common", strings.Join(s.common, ","), name, t.Skip)
		case s.of(name) == s.k:
			out = append(out, t)
		default:
			left++
		}
	}
	return out, left, nil
}

// of returns the shard a variant's name hashes to.
func (s *shard) of(name string) int {
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32() % uint32(s.n))
}

// subset reports whether every feature of need is in have.
func subset(need, have []string) bool {
	for _, f := range need {
		if !slices.Contains(have, f) {
			return false
		}
	}
	return true
}

// nonVector returns the features of fs that no feature level defines
// and that are not vector extensions (aes, pclmulqdq, adx, sha, ...):
// a lower tier has them if the shard's tiers do.
func nonVector(fs []string) []string {
	c, _ := cpu.LevelCPU(cpu.LevelV4)
	v4 := c.FeatureList()
	var out []string
	for _, f := range fs {
		if !slices.Contains(v4, f) && !strings.HasPrefix(f, "avx") && f != "vaes" && f != "vpclmulqdq" && f != "gfni" {
			out = append(out, f)
		}
	}
	return out
}
