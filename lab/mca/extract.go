// Package mca predicts the throughput of generated loops on CPU models the
// host may not be, with LLVM's machine-code analyzer (llvm-mca), and
// reconciles predictions with measurements.
//
// A loop body is taken from the running binary itself: package asmmap finds
// the loop head and back-edge, the bytes are read from /proc/self/mem and
// disassembled with GNU objdump (Go's own disassembler cannot decode VEX or
// EVEX instructions), and the AT&T text is fed to llvm-mca (Find picks the
// newest of LLVM 19 or later). A model is never given a loop it lacks
// features for: neither those the variant declares nor AVX-512, when the
// loop's bytes hold an EVEX-encoded instruction.
package mca

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"github.com/tunelab/tunelab/internal/asmmap"
)

// An Instr is one disassembled instruction of a loop body.
type Instr struct {
	Addr uint64
	Text string // AT&T syntax, branch targets inside the loop as "loop"
	// EVEX marks an EVEX-encoded (AVX-512) instruction, read off its
	// bytes: it needs avx512f whatever the variant declares.
	EVEX bool
}

// Body is a loop body ready for llvm-mca.
type Body struct {
	Loop   *asmmap.Loop
	Instrs []Instr
}

// Asm returns the body as llvm-mca input: a "loop:" label then one
// instruction per line.
func (b *Body) Asm() string {
	var sb strings.Builder
	sb.WriteString("loop:\n")
	for _, in := range b.Instrs {
		sb.WriteString("\t" + in.Text + "\n")
	}
	return sb.String()
}

// FirstEVEX returns the body's first EVEX-encoded instruction, or nil.
func (b *Body) FirstEVEX() *Instr {
	for i := range b.Instrs {
		if b.Instrs[i].EVEX {
			return &b.Instrs[i]
		}
	}
	return nil
}

// ObjdumpPath is the GNU objdump used for disassembly.
var ObjdumpPath = "objdump"

// Extract disassembles the loop's body, head to back-edge inclusive.
func Extract(ctx context.Context, l *asmmap.Loop) (*Body, error) {
	code, err := readCode(l.Head, l.Size())
	if err != nil {
		return nil, err
	}
	text, err := disassemble(ctx, code, l.Head)
	if err != nil {
		return nil, fmt.Errorf("disassembling %s: %w", l.Symbol, err)
	}
	instrs, err := parseObjdump(text, l.Head)
	if err != nil {
		return nil, fmt.Errorf("disassembling %s: %w", l.Symbol, err)
	}
	for i := range instrs {
		if off := instrs[i].Addr - l.Head; off < uint64(len(code)) {
			instrs[i].EVEX = isEVEX(code[off:])
		}
	}
	return &Body{Loop: l, Instrs: instrs}, nil
}

// isEVEX reports whether the instruction at the start of code is
// EVEX-encoded: byte 0x62 after any legacy prefixes (in 64-bit mode 0x62
// is nothing else; a REX prefix cannot precede it).
func isEVEX(code []byte) bool {
	for len(code) > 0 && legacyPrefix(code[0]) {
		code = code[1:]
	}
	return len(code) > 0 && code[0] == 0x62
}

// legacyPrefix reports whether b is an x86 legacy prefix: operand or
// address size, REP/REPNE, LOCK or a segment override.
func legacyPrefix(b byte) bool {
	switch b {
	case 0x66, 0x67, 0xf2, 0xf3, 0xf0, 0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65:
		return true
	}
	return false
}

// readCode reads n bytes of this process's code at addr.
func readCode(addr uint64, n int) ([]byte, error) {
	f, err := os.Open("/proc/self/mem")
	if err != nil {
		return nil, fmt.Errorf("reading own code: %w", err)
	}
	defer f.Close()
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, int64(addr)); err != nil {
		return nil, fmt.Errorf("reading own code at %#x: %w", addr, err)
	}
	return buf, nil
}

func disassemble(ctx context.Context, code []byte, vma uint64) (string, error) {
	if _, err := exec.LookPath(ObjdumpPath); err != nil {
		return "", fmt.Errorf("GNU objdump not found (apt-get install binutils): %w", err)
	}
	tmp, err := os.CreateTemp("", "tunelab-loop-*.bin")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(code); err != nil {
		tmp.Close()
		return "", err
	}
	tmp.Close()
	cmd := exec.CommandContext(ctx, ObjdumpPath, "-D", "-b", "binary", "-m", "i386:x86-64",
		"--no-show-raw-insn", fmt.Sprintf("--adjust-vma=%#x", vma), tmp.Name())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("objdump: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

var (
	insnLine  = regexp.MustCompile(`^\s*([0-9a-f]+):\s+(.+)$`)
	jumpInsn  = regexp.MustCompile(`^(j[a-z]+|loop[a-z]*)\s+(0x[0-9a-f]+|[0-9a-f]+)\b.*$`)
	trailComm = regexp.MustCompile(`\s*#.*$`)
)

// parseObjdump turns objdump's listing into instructions; a jump back to
// head is rewritten to target the label "loop".
func parseObjdump(text string, head uint64) ([]Instr, error) {
	var out []Instr
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		m := insnLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		addr, _ := strconv.ParseUint(m[1], 16, 64)
		ins := strings.Join(strings.Fields(trailComm.ReplaceAllString(m[2], "")), " ")
		if ins == "(bad)" {
			return nil, fmt.Errorf("objdump cannot decode the instruction at %#x", addr)
		}
		out = append(out, Instr{Addr: addr, Text: rewriteJump(ins, head)})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("objdump printed no instructions")
	}
	return out, nil
}

func rewriteJump(ins string, head uint64) string {
	m := jumpInsn.FindStringSubmatch(ins)
	if m == nil {
		return ins
	}
	target, err := strconv.ParseUint(strings.TrimPrefix(m[2], "0x"), 16, 64)
	if err != nil || target != head {
		return ins
	}
	return m[1] + " loop"
}
