// Package asmmap locates generated assembly functions and their hot loops in
// the running binary: the function's address range, the loop head's address
// (and so its offset within a 64-byte cache line) and the loop's back-edge.
//
// It reads the Go line table (.gopclntab) of the executable with debug/gosym,
// which survives `go run` and stripped builds (unlike the ELF symbol table
// and DWARF), and maps the generated .s file's lines to program counters.
// The loop head is the first instruction after the loop label in the .s
// source; the back-edge is the last jump to that label. A label with no
// jump back marks a straight-line block (fully unrolled code), which ends
// at the function's last instruction; an empty label names the whole
// function as such a block (a fully unrolled function with no label of
// its own). So the .s file must
// be readable at the path recorded in the binary (true for binaries built
// from this source tree); otherwise Locate says so.
package asmmap

import (
	"debug/elf"
	"debug/gosym"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"sync"
)

// A Loop is a located hot loop of an assembly function.
type Loop struct {
	Symbol     string
	Entry, End uint64 // the function's [Entry, End) in the running process
	File       string // generated .s file
	Label      string
	LabelLine  int    // line of "Label:" in File
	Head       uint64 // address of the first instruction after the label
	HeadLine   int
	BackEdge   uint64 // address of the last jump to Label
	BackLine   int
	BodyEnd    uint64 // first address after the back-edge instruction
	// SourceInstrs is the number of instruction lines in the .s source
	// from the head through the back-edge.
	SourceInstrs int
	// Straight marks a label without a jump back to it: a straight-line
	// block, located from the label to the function's last instruction
	// (BackEdge is then that instruction, e.g. RET).
	Straight bool
}

// Offset returns the loop head's offset within its 64-byte line.
func (l *Loop) Offset() int { return int(l.Head % 64) }

// Size returns the loop body's size in bytes, head to back-edge inclusive.
func (l *Loop) Size() int { return int(l.BodyEnd - l.Head) }

// LinesCrossed returns how many 64-byte line boundaries the body crosses.
func (l *Loop) LinesCrossed() int {
	if l.BodyEnd <= l.Head {
		return 0
	}
	return int((l.BodyEnd-1)/64 - l.Head/64)
}

var (
	tabOnce sync.Once
	tab     *table
	tabErr  error
)

// A table is the executable's line table plus the load offset between the
// file's addresses and the running process's.
type table struct {
	*gosym.Table
	slide uint64
	// exe and textAddr locate the executable's .text section, whose
	// bytes textBytes reads once when first needed.
	exe      string
	textAddr uint64
	textOnce sync.Once
	text     []byte
	textErr  error
}

// textBytes returns the bytes of the executable's .text section.
func (t *table) textBytes() ([]byte, error) {
	t.textOnce.Do(func() {
		f, err := elf.Open(t.exe)
		if err != nil {
			t.textErr = fmt.Errorf("opening %s: %w", t.exe, err)
			return
		}
		defer f.Close()
		if t.text, err = f.Section(".text").Data(); err != nil {
			t.textErr = fmt.Errorf("reading .text of %s: %w", t.exe, err)
		}
	})
	return t.text, t.textErr
}

func loadTable() (*table, error) {
	tabOnce.Do(func() { tab, tabErr = readTable() })
	return tab, tabErr
}

func readTable() (*table, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding executable: %w", err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", exe, err)
	}
	defer f.Close()
	pcln, text := f.Section(".gopclntab"), f.Section(".text")
	if pcln == nil || text == nil {
		return nil, fmt.Errorf("%s has no .gopclntab or .text section", exe)
	}
	data, err := pcln.Data()
	if err != nil {
		return nil, fmt.Errorf("reading .gopclntab of %s: %w", exe, err)
	}
	t, err := gosym.NewTable(nil, gosym.NewLineTable(data, text.Addr))
	if err != nil {
		return nil, fmt.Errorf("decoding line table of %s: %w", exe, err)
	}
	return &table{Table: t, slide: slideOf(t), exe: exe, textAddr: text.Addr}, nil
}

// slideOf compares a known function's address in the file with its address
// in the running process (non-zero for position-independent executables).
func slideOf(t *gosym.Table) uint64 {
	pc := reflect.ValueOf(readTable).Pointer()
	fn := runtime.FuncForPC(pc)
	if fn == nil {
		return 0
	}
	if f := t.LookupFunc(fn.Name()); f != nil {
		return uint64(fn.Entry()) - f.Entry
	}
	return 0
}

// Func returns the [entry, end) range of the named function in the running
// process, e.g. "github.com/tunelab/tunelab/kernels/keccak.keccakX4_avx2".
func Func(symbol string) (entry, end uint64, err error) {
	t, err := loadTable()
	if err != nil {
		return 0, 0, err
	}
	f := t.LookupFunc(symbol)
	if f == nil {
		return 0, 0, fmt.Errorf("function %s not found in the binary's line table", symbol)
	}
	return f.Entry + t.slide, f.End + t.slide, nil
}

// int3 is the byte the linker pads between functions with.
const int3 = 0xcc

// CodeSize returns the size in bytes of the named function's code in the
// running process: its [entry, end) range without the INT3 padding the
// linker puts after it to align the next function. Unlike end - entry,
// it does not depend on which function follows, so it is the same in
// every binary that links the same assembly.
func CodeSize(symbol string) (int, error) {
	entry, end, err := Func(symbol)
	if err != nil {
		return 0, err
	}
	t, _ := loadTable()
	text, err := t.textBytes()
	if err != nil {
		return 0, err
	}
	lo, hi := entry-t.slide-t.textAddr, end-t.slide-t.textAddr
	if hi > uint64(len(text)) || lo > hi {
		return 0, fmt.Errorf("function %s lies outside the .text section", symbol)
	}
	code := text[lo:hi]
	n := len(code)
	for n > 0 && code[n-1] == int3 {
		n--
	}
	return n, nil
}

// Locate finds the loop labelled label in the assembly function symbol;
// label "" locates the whole function as a straight-line block.
func Locate(symbol, label string) (*Loop, error) {
	t, err := loadTable()
	if err != nil {
		return nil, err
	}
	f := t.LookupFunc(symbol)
	if f == nil {
		return nil, fmt.Errorf("function %s not found in the binary's line table", symbol)
	}
	file, _, _ := t.PCToLine(f.Entry)
	l := &Loop{Symbol: symbol, Entry: f.Entry + t.slide, End: f.End + t.slide, File: file, Label: label}
	src, err := readSource(file, symbol, label)
	if err != nil {
		return nil, err
	}
	l.LabelLine, l.HeadLine, l.BackLine = src.labelLine, src.headLine, src.backLine
	l.SourceInstrs, l.Straight = src.instrs, src.straight
	if err := l.resolve(t, f); err != nil {
		return nil, err
	}
	return l, nil
}

// resolve maps the source lines to addresses inside f.
func (l *Loop) resolve(t *table, f *gosym.Func) error {
	head, err := pcOfLine(t, f, l.File, l.HeadLine)
	if err != nil {
		return fmt.Errorf("%s: loop head %s:%d: %w", l.Symbol, l.File, l.HeadLine, err)
	}
	back, err := pcOfLine(t, f, l.File, l.BackLine)
	if err != nil {
		return fmt.Errorf("%s: back-edge %s:%d: %w", l.Symbol, l.File, l.BackLine, err)
	}
	l.Head, l.BackEdge = head+t.slide, back+t.slide
	l.BodyEnd = nextInstruction(t, f, back) + t.slide
	return nil
}

// pcOfLine returns the pc of the instruction on line of file, which must
// lie inside f (a .s line holds one instruction).
func pcOfLine(t *table, f *gosym.Func, file string, line int) (uint64, error) {
	pc, _, err := t.LineToPC(file, line)
	if err != nil {
		return 0, err
	}
	if pc < f.Entry || pc >= f.End {
		return 0, fmt.Errorf("line %d of %s is outside %s", line, file, f.Name)
	}
	return pc, nil
}

// nextInstruction returns the first pc after pc that belongs to another
// source line (each line of a .s file is one instruction; x86 instructions
// are at most 15 bytes), or f.End.
func nextInstruction(t *table, f *gosym.Func, pc uint64) uint64 {
	_, line, _ := t.PCToLine(pc)
	for next := pc + 1; next < f.End && next <= pc+15; next++ {
		if _, l, _ := t.PCToLine(next); l != line {
			return next
		}
	}
	return f.End
}
