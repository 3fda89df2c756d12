package asmstat

import (
	"os"
	"path/filepath"
	"testing"
)

func TestInstructionCounts(t *testing.T) {
	const asm = "// Code generated. DO NOT EDIT.\n\n#include \"textflag.h\"\n\n" +
		"// func a()\nTEXT ·a(SB), NOSPLIT, $0\n\t// comment\n\tXORQ AX, AX\n\nloop:\n\tDECQ AX\n\tJNZ  loop\n\tRET\n\n" +
		"TEXT ·b(SB), NOSPLIT, $0-8\n\tRET\n\nDATA c<>+0(SB)/8, $0x01\nGLOBL c<>(SB), RODATA|NOPTR, $8\n"
	path := filepath.Join(t.TempDir(), "x.s")
	if err := os.WriteFile(path, []byte(asm), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := InstructionCounts(path)
	if err != nil {
		t.Fatal(err)
	}
	if got["a"] != 4 || got["b"] != 1 || len(got) != 2 {
		t.Errorf("InstructionCounts = %v, want map[a:4 b:1]", got)
	}
	if _, err := InstructionCounts(filepath.Join(t.TempDir(), "missing.s")); err == nil {
		t.Error("InstructionCounts of a missing file succeeded")
	}
}
