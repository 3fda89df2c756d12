package cpu

import "fmt"

// Feature levels of the x86-64 psABI. Every amd64 CPU has x86-64-v1.
const (
	LevelV1 = "x86-64-v1"
	LevelV2 = "x86-64-v2"
	LevelV3 = "x86-64-v3"
	LevelV4 = "x86-64-v4"
)

// levels lists, from the highest, each level with the features it needs
// beyond the x86-64-v1 baseline (cumulative).
var levels = []struct {
	name string
	need FeatureSet
}{
	{LevelV4, levelV3 | mustSet("avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl")},
	{LevelV3, levelV3},
	{LevelV2, levelV2},
}

var (
	levelV2 = mustSet("cx16", "lahf", "popcnt", "sse3", "ssse3", "sse41", "sse42")
	levelV3 = levelV2 | mustSet("avx", "avx2", "bmi1", "bmi2", "f16c", "fma",
		"lzcnt", "movbe", "osxsave")
)

// levelOf returns the highest level whose features are all in s.
func levelOf(s FeatureSet) string {
	for _, l := range levels {
		if s&l.need == l.need {
			return l.name
		}
	}
	return LevelV1
}

// levelNeeds returns the features the named level requires.
func levelNeeds(level string) FeatureSet {
	for _, l := range levels {
		if l.name == level {
			return l.need
		}
	}
	return 0
}

// LevelRank returns 1..4 for "x86-64-v1".."x86-64-v4", 0 for "" and -1 for
// anything else.
func LevelRank(level string) int {
	switch level {
	case "":
		return 0
	case LevelV1, LevelV2, LevelV3, LevelV4:
		return int(level[len(level)-1] - '0')
	}
	return -1
}

// FeatureLevel returns the x86-64 level that the named features reach and
// the kernel-relevant features beyond that level (canonical order). Unknown
// names are ignored. It lets reports compute a level from a result file's
// feature list.
func FeatureLevel(features []string) (level string, extras []string) {
	s, _ := SetOf(features...)
	level = levelOf(s)
	return level, extrasOf(s, level)
}

// extrasOf lists the kernel-relevant features in s that level does not
// imply.
func extrasOf(s FeatureSet, level string) []string {
	var out []string
	rest := s &^ levelNeeds(level)
	for i, f := range featureTable {
		if rest&(1<<i) != 0 && !f.level {
			out = append(out, f.name)
		}
	}
	return out
}

// LevelCPU returns a synthetic amd64 CPU with the features of level plus
// extra (for tests and previews of other tiers); unknown names are an
// error.
func LevelCPU(level string, extra ...string) (*CPU, error) {
	if LevelRank(level) < 1 {
		return nil, fmt.Errorf("synthetic cpu: unknown feature level %q", level)
	}
	c := &CPU{Arch: "amd64"}
	if err := c.SetFeatures(append(levelNeeds(level).Names(), extra...)...); err != nil {
		return nil, err
	}
	return c, nil
}
