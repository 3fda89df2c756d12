package reports

import (
	"fmt"
	"strings"
)

// A Class is a run of adjacent measured sizes with the same winner: it
// covers inputs up to MaxSize bytes (0 = no upper bound) down to the
// previous class's MaxSize.
type Class struct {
	MinSize, MaxSize int // measured sizes at the class's ends; MaxSize 0 in the last class
	Variant          string
	Sizes            []int // measured sizes in the class
}

// SizeClasses are the winner classes of one kernel on one CPU model.
// Sizes without a winner (too few samples) are left out and covered by the
// following class.
type SizeClasses struct {
	Model   *Model
	Kernel  string
	Classes []Class
}

// sizeClasses merges adjacent sizes with the same winner, per model and
// kernel. Fixed-size kernels get a single unbounded class.
func sizeClasses(groups []*Group) []*SizeClasses {
	var out []*SizeClasses
	for i := 0; i < len(groups); {
		j := i
		var sizes []int
		var picks []string
		for ; j < len(groups) && groups[j].Model == groups[i].Model && groups[j].Kernel == groups[i].Kernel; j++ {
			sizes = append(sizes, groups[j].Size)
			picks = append(picks, groups[j].Decision.Winner)
		}
		out = append(out, &SizeClasses{Model: groups[i].Model, Kernel: groups[i].Kernel, Classes: MergeChoices(sizes, picks)})
		i = j
	}
	return out
}

// appendSize adds a measured size (sizes arrive in increasing order) with
// its winner, extending the last class when the winner is the same.
func appendSize(cs []Class, size int, winner string) []Class {
	if n := len(cs); n > 0 && cs[n-1].Variant == winner {
		cs[n-1].MaxSize = size
		cs[n-1].Sizes = append(cs[n-1].Sizes, size)
		return cs
	}
	return append(cs, Class{MinSize: size, MaxSize: size, Variant: winner, Sizes: []int{size}})
}

// MergeChoices turns per-size picks (sizes increasing) into classes.
func MergeChoices(sizes []int, picks []string) []Class {
	var cs []Class
	for i, s := range sizes {
		if picks[i] != "" {
			cs = appendSize(cs, s, picks[i])
		}
	}
	if n := len(cs); n > 0 {
		cs[n-1].MaxSize = 0
	}
	return cs
}

// ClassRanges describes size classes as "≤64 B: X; 65–1024 B: Y; >1024 B: Z".
func ClassRanges(cs []Class) string {
	if len(cs) == 1 && cs[0].MinSize == 0 {
		return "all sizes: " + cs[0].Variant
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = classRange(cs, i) + ": " + c.Variant
	}
	return strings.Join(parts, "; ")
}

func classRange(cs []Class, i int) string {
	c := cs[i]
	switch {
	case len(cs) == 1:
		return "all sizes"
	case i == 0:
		return fmt.Sprintf("≤%d B", c.MaxSize)
	case c.MaxSize == 0:
		return fmt.Sprintf(">%d B", cs[i-1].MaxSize)
	}
	return fmt.Sprintf("%d–%d B", cs[i-1].MaxSize+1, c.MaxSize)
}
