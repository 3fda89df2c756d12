package asmmap

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

// sourceLines are the lines of interest in a generated .s file (1-based).
type sourceLines struct {
	labelLine, headLine, backLine int
	// instrs counts instruction lines from the head through the back-edge.
	instrs, pending int
	// lastLine is the last instruction line of the block and lastCount the
	// instructions from the head through it: a label without a jump back
	// (a straight-line block) extends to there.
	lastLine, lastCount int
	straight            bool
}

// readSource finds, in the TEXT block of symbol in file, the loop label, the
// first instruction after it and the last jump back to it. An empty label
// stands for the TEXT line itself: the block is the whole function.
func readSource(file, symbol, label string) (sourceLines, error) {
	var s sourceLines
	src, err := sourceFile(file)
	if err != nil {
		return s, fmt.Errorf("reading generated assembly for %s (needed to find loop %q): %w", symbol, label, err)
	}
	block, ok := src.blocks["·"+shortName(symbol)]
	if !ok {
		return s, fmt.Errorf("%s: no TEXT block for %s", file, symbol)
	}
	if label == "" {
		s.labelLine = block[0] // the TEXT line: the whole function is the block
	}
	for n := block[0]; n < block[1]; n++ {
		s.scan(n+1, src.lines[n], label)
	}
	return s, s.check(file, symbol, label)
}

// A source is a parsed .s file: trimmed lines and, per TEXT symbol, the
// 0-based line range [start, end) of its block.
type source struct {
	lines  []string
	blocks map[string][2]int
}

var (
	sourcesMu sync.Mutex
	sources   = map[string]*source{}
)

// sourceFile reads and indexes file once per process.
func sourceFile(file string) (*source, error) {
	sourcesMu.Lock()
	defer sourcesMu.Unlock()
	if src, ok := sources[file]; ok {
		return src, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	src := &source{blocks: map[string][2]int{}}
	cur, start := "", 0
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		src.lines = append(src.lines, line)
		if strings.HasPrefix(line, "TEXT ") {
			if cur != "" {
				src.blocks[cur] = [2]int{start, i}
			}
			cur, start = textSymbol(line), i+1
		}
	}
	if cur != "" {
		src.blocks[cur] = [2]int{start, len(src.lines)}
	}
	sources[file] = src
	return src, nil
}

// textSymbol returns "·name" from "TEXT ·name(SB), ...".
func textSymbol(line string) string {
	f := strings.TrimPrefix(line, "TEXT ")
	if i := strings.Index(f, "(SB)"); i >= 0 {
		return strings.TrimSpace(f[:i])
	}
	return f
}

// scan updates s with source line n.
func (s *sourceLines) scan(n int, line, label string) {
	switch {
	case label != "" && line == label+":":
		s.labelLine = n
	case s.labelLine != 0 && s.headLine == 0 && isInstruction(line):
		s.headLine = n
	case s.headLine != 0 && isJumpTo(line, label):
		s.backLine = n
	}
	if s.headLine != 0 && isInstruction(line) {
		s.pending++
		s.lastLine, s.lastCount = n, s.pending
		if s.backLine == n {
			s.instrs = s.pending
		}
	}
}

func (s *sourceLines) check(file, symbol, label string) error {
	switch {
	case s.labelLine == 0:
		return fmt.Errorf("%s: no label %q in the TEXT block of %s", file, label, symbol)
	case s.headLine == 0:
		return fmt.Errorf("%s:%d: no instruction after label %q", file, s.labelLine, label)
	case s.backLine == 0:
		// A straight-line block (e.g. a fully unrolled NTT): the "loop"
		// is the block from the label to the function's last instruction.
		s.backLine, s.instrs, s.straight = s.lastLine, s.lastCount, true
	}
	return nil
}

// isInstruction reports whether a trimmed .s line holds an instruction
// (not blank, a comment, a label or a directive that emits no code).
func isInstruction(line string) bool {
	if line == "" || strings.HasPrefix(line, "//") || strings.HasSuffix(line, ":") {
		return false
	}
	op := strings.Fields(line)[0]
	return op != "PCALIGN" && op != "#include" && op != "DATA" && op != "GLOBL"
}

// isJumpTo reports whether line is a jump instruction whose target is label.
func isJumpTo(line, label string) bool {
	f := strings.Fields(line)
	return len(f) == 2 && strings.HasPrefix(f[0], "J") && f[1] == label
}

// shortName returns the part of a symbol after the package path.
func shortName(symbol string) string {
	if i := strings.LastIndex(symbol, "/"); i >= 0 {
		symbol = symbol[i+1:]
	}
	if i := strings.Index(symbol, "."); i >= 0 {
		symbol = symbol[i+1:]
	}
	return symbol
}
