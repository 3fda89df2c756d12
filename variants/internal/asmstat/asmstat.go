// Package asmstat reads facts back from an assembly file a generator has
// just written, for the variant tables generators emit alongside it.
package asmstat

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// InstructionCounts returns the number of instruction lines per TEXT block
// of the Go assembly file at path, keyed by function name without the
// leading "·". Comments, blank lines, labels and data directives outside
// functions are not counted.
func InstructionCounts(path string) (map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("counting instructions: %w", err)
	}
	defer f.Close()
	counts := map[string]int{}
	cur := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "TEXT ·"); ok {
			cur, _, _ = strings.Cut(name, "(")
			continue
		}
		t := strings.TrimSpace(line)
		if cur == "" || !strings.HasPrefix(line, "\t") || t == "" || strings.HasPrefix(t, "//") {
			continue
		}
		counts[cur]++
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("counting instructions in %s: %w", path, err)
	}
	return counts, nil
}
