package profiler

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// maxDisasmSpan bounds the address range one objdump call decodes.
const maxDisasmSpan = 1 << 16

// AddDisasm fills in Hot.Disasm from GNU objdump's disassembly of exe (the
// running binary: Go executables are not position independent on
// linux/amd64, so runtime PCs are file addresses). Go's own disassembler
// prints VEX/EVEX instructions as "?"; binutils decodes them. It is a no-op
// returning an error when objdump is missing or the hot addresses span more
// than 64 KiB.
func AddDisasm(hots []Hot, exe string) error {
	if len(hots) == 0 {
		return nil
	}
	bin, err := exec.LookPath("objdump")
	if err != nil {
		return fmt.Errorf("disassembly: GNU objdump not found")
	}
	lo, hi := hots[0].Addr, hots[0].Addr
	for _, h := range hots {
		lo, hi = min(lo, h.Addr), max(hi, h.Addr)
	}
	if hi-lo > maxDisasmSpan {
		return fmt.Errorf("disassembly: hot addresses span %d bytes, more than %d", hi-lo, maxDisasmSpan)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "-d", "--no-show-raw-insn",
		"--start-address="+hexAddr(lo), "--stop-address="+hexAddr(hi+16), exe).Output()
	if err != nil {
		return fmt.Errorf("disassembly: objdump %s: %w", exe, err)
	}
	insns := parseObjdump(out)
	for i := range hots {
		hots[i].Disasm = insns[hots[i].Addr]
	}
	return nil
}

func hexAddr(a uint64) string { return "0x" + strconv.FormatUint(a, 16) }

// parseObjdump maps addresses to instruction text in objdump -d output
// lines such as "  4a1b2c:\tvprolq $0x1,%zmm3,%zmm4".
func parseObjdump(out []byte) map[uint64]string {
	m := map[uint64]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		addr, insn, ok := strings.Cut(sc.Text(), ":\t")
		if !ok {
			continue
		}
		a, err := strconv.ParseUint(strings.TrimSpace(addr), 16, 64)
		if err != nil {
			continue
		}
		m[a] = strings.Join(strings.Fields(insn), " ")
	}
	return m
}
