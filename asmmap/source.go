package asmmap

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// sourceLines are the lines of interest in a generated .s file (1-based).
type sourceLines struct {
	labelLine, headLine, backLine int
	// instrs counts instruction lines from the head through the back-edge.
	instrs, pending int
}

// readSource finds, in the TEXT block of symbol in file, the loop label, the
// first instruction after it and the last jump back to it.
func readSource(file, symbol, label string) (sourceLines, error) {
	var s sourceLines
	f, err := os.Open(file)
	if err != nil {
		return s, fmt.Errorf("reading generated assembly for %s (needed to find loop %q): %w", symbol, label, err)
	}
	defer f.Close()
	text := "TEXT ·" + shortName(symbol) + "(SB)"
	in := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "TEXT ") {
			in = strings.HasPrefix(line, text)
			continue
		}
		if in {
			s.scan(n, line, label)
		}
	}
	if err := sc.Err(); err != nil {
		return s, fmt.Errorf("reading %s: %w", file, err)
	}
	return s, s.check(file, symbol, label)
}

// scan updates s with source line n.
func (s *sourceLines) scan(n int, line, label string) {
	switch {
	case line == label+":":
		s.labelLine = n
	case s.labelLine != 0 && s.headLine == 0 && isInstruction(line):
		s.headLine = n
	case s.headLine != 0 && isJumpTo(line, label):
		s.backLine = n
	}
	if s.headLine != 0 && isInstruction(line) {
		s.pending++
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
		return fmt.Errorf("%s:%d: no jump back to label %q", file, s.labelLine, label)
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
