package main

import (
	"fmt"
	"strings"

	"github.com/tunelab/tunelab/internal/asmalign"
)

// A variant is one point of the knob space. Knob order in names is fixed:
// isa, layout, comp, rot, chi, regs, load, group, unroll, xpose, align.
type variant struct {
	nr     int    // states in parallel: 1, 2, 4, 8
	isa    string // scalar, avx2, avx512vl, avx512f
	layout string // x1 vector only: "lanes" (one lane per xmm register) | "rows" (one row per zmm register)
	comp   string // scalar only: lane complementing "on" | "off"
	// rot: scalar "" (ROLQ) | "rorx" (BMI2 RORXQ where theta rotates a
	// copy); vector "prol" (VPROLQ) | "shiftor" (shift, shift, or) |
	// "prolv" (VPROLVQ, rows); AVX2 also "shufb" (VPSHUFB for the
	// byte-multiple offsets 8 and 56) | "shufb+add" (shufb, and rotations
	// by 1 with fewer shifts; see rot.go).
	rot string
	// chi: scalar "" (MOV, NOT, AND/OR) | "andn" (BMI1 ANDNQ, comp=off);
	// vector "ternlog" (VPTERNLOGQ for all 3-input logic) | "andnxor".
	chi string
	// regs: scalar "" (theta loads every column's parity) | "acc" (two
	// columns' parities accumulated in registers as chi writes, see
	// accCols); vector "all" (25 lanes in registers) | "spill" (state in
	// a stack buffer).
	regs string
	// load, regs=spill only: "" (each lane's load is the memory operand of
	// theta's XOR) | "split" (a VMOVDQU of its own, then the XOR).
	load   string
	group  string // AVX2, NR = 8 (two groups of 4 states): "interleave" (each round of both groups in one loop) | "seq" (one group, then the other)
	unroll int    // rounds per loop iteration: 1, 2, 4, 24
	// xpose, nr >= 2: "unpack" (unpack/shuffle network) | "gather"
	// (VPGATHERQQ in, network out) | "insert" (AVX2 ymm: 128-bit loads
	// with VINSERTI128 and one unpack per lane in, unpacks and
	// VEXTRACTI128 stores out; see insertLanes).
	xpose string
	align asmalign.Align
	sweep bool // member of the offset sweep of the kernel's base variant
}

// kernel returns the dispatch name of the variant's kernel.
func (v variant) kernel() string { return fmt.Sprintf("keccak.x%d", v.nr) }

// name builds the knob name, e.g. "isa=avx512vl/rot=prol/chi=ternlog/regs=all/unroll=2/xpose=unpack/align=64".
func (v variant) name() string {
	parts := []string{"isa=" + v.isa}
	add := func(k, val string) {
		if val != "" {
			parts = append(parts, k+"="+val)
		}
	}
	add("layout", v.layout)
	add("comp", v.comp)
	add("rot", v.rot)
	add("chi", v.chi)
	add("regs", v.regs)
	add("load", v.load)
	add("group", v.group)
	add("unroll", fmt.Sprint(v.unroll))
	add("xpose", v.xpose)
	add("align", v.align.String())
	return strings.Join(parts, "/")
}

// symbol is the assembly function name (without package prefix).
func (v variant) symbol() string {
	parts := []string{fmt.Sprintf("keccakX%d", v.nr), v.isa, v.layout, v.comp, strings.ReplaceAll(v.rot, "+", ""), v.chi, v.regs, v.load, v.group,
		fmt.Sprintf("u%d", v.unroll), v.xpose, "a" + strings.ReplaceAll(v.align.String(), "+", "p")}
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	if len(v.comp) > 0 {
		keep[2] = "comp" + v.comp
	}
	return strings.Join(keep, "_")
}

// valid is the exclusion rule set; every combination it rejects is
// impossible or deliberately pruned, for the reason given.
func (v variant) valid() bool {
	evex := v.isa == "avx512vl" || v.isa == "avx512f"
	a64 := v.align == asmalign.At(0)
	switch {
	case v.chi == "andn" && (v.comp != "off" || !a64):
		return false // BMI (chi=andn, rot=rorx) needs no lane complementing: compared at align=64
	case v.regs == "acc" && (v.unroll%2 == 1 || !a64 || v.comp == "off" && v.chi != "andn"):
		return false // accumulated parities address the stack buffer from SP, so rounds pair up (no pointer swap); compared at align=64 on the two best scalar logics
	case v.layout == "rows":
		return a64 || v.unroll <= 2 // one state, rows in zmm: only unroll and align vary
	case v.nr == 8 && v.isa == "avx512vl", v.nr != 8 && v.isa == "avx512f":
		return false // 8 lanes of 64 bits need zmm (or two ymm groups on AVX2); zmm is used for 8 states (or rows)
	case (v.group != "") != (v.nr == 8 && v.isa == "avx2"):
		return false // only AVX2 splits 8 states into two groups of 4 (ymm holds 4 lanes of 64 bits)
	case v.nr == 1 && v.isa == "avx2":
		return false // one state: scalar GPRs, or AVX-512 (32 registers hold the whole state)
	case v.isa == "avx2" && (v.rot == "prol" || v.chi != "andnxor" || v.regs != "spill"):
		return false // AVX2 has no VPROLQ/VPTERNLOGQ, and 16 registers cannot hold 25 lanes
	case v.isa != "avx2" && avx2Rot(v.rot):
		return false // AVX-512 rotates every offset with one VPROLQ: no byte shuffles or adds to save shifts
	case avx2Rot(v.rot) && (v.unroll > 2 || !a64 || v.xpose == "gather"):
		return false // the AVX2 rotation knobs change the round, not the loop or the transposition: compared at unroll 1, 2, align=64
	case v.load != "" && (v.regs != "spill" || v.unroll > 2 || !a64 || v.xpose == "gather"):
		return false // split loads change the spilled round only: compared at unroll 1, 2, align=64
	case v.load != "" && evex && (!v.best() || v.unroll != 2):
		return false // AVX-512 spills are the slower allocation: split loads compared on the fastest logic at unroll=2
	case v.nr == 1 && evex && v.regs != "all":
		return false // a spilled single state is what the scalar variants do
	case !v.best() && (v.unroll != 2 || !a64 || v.xpose == "gather"):
		return false // slower logic (shift-or, andn+xor) is compared at unroll=2, align=64 only
	case v.xpose == "gather" && (v.unroll != 2 || !a64):
		return false // the transpose runs outside the round loop: compared at unroll=2, align=64
	case v.xpose == "insert" && (v.isa != "avx2" || v.unroll > 2 || !a64):
		return false // 128-bit inserts pair ymm halves (AVX-512 has its own shuffles); outside the round loop: compared at unroll 1, 2, align=64
	case !a64 && (v.unroll > 2 || v.regs == "spill" && evex):
		return false // alignment none/32 on iterating loops (unroll 1, 2) of the fastest layout
	}
	return true
}

// avx2Rot reports whether rot is one of the AVX2 rotation knobs that
// replace some shift-or rotations (see spillState.rolT).
func avx2Rot(rot string) bool { return rot == "shufb" || rot == "shufb+add" }

// best reports whether the variant uses the fastest logic of its ISA
// (VPROLQ and VPTERNLOGQ on AVX-512).
func (v variant) best() bool {
	return !(v.isa == "avx512vl" || v.isa == "avx512f") || v.rot == "prol" && v.chi == "ternlog"
}

var (
	widths  = []int{1, 2, 4, 8} // states in parallel, one kernel each
	unrolls = []int{1, 2, 4, 24}
	aligns  = []asmalign.Align{asmalign.None, {Boundary: 32}, asmalign.At(0)}
)

// space enumerates the knob space in a fixed order and keeps valid variants.
func space() []variant {
	var out []variant
	for _, nr := range widths {
		for _, v := range candidates(nr) {
			if v.valid() {
				out = append(out, v)
			}
		}
		for _, b := range bases(nr) {
			out = append(out, offsetSweep(b)...)
		}
	}
	return out
}

// candidates is the raw cross product for nr states.
func candidates(nr int) []variant {
	var out []variant
	for _, isa := range []string{"scalar", "avx2", "avx512vl", "avx512f"} {
		if isa == "scalar" {
			if nr == 1 {
				out = append(out, scalarCandidates()...)
				out = append(out, rowsCandidates()...)
			}
			continue
		}
		for _, rot := range []string{"prol", "shiftor", "shufb", "shufb+add"} {
			for _, chi := range []string{"ternlog", "andnxor"} {
				for _, regs := range []string{"all", "spill"} {
					for _, grp := range groups(nr, isa) {
						for _, u := range unrolls {
							for _, xp := range xposes(nr) {
								for _, al := range aligns {
									v := variant{nr: nr, isa: isa, rot: rot, chi: chi, regs: regs, group: grp, unroll: u, xpose: xp, align: al}
									if nr == 1 {
										v.layout = "lanes"
									}
									out = append(out, v)
									if regs == "spill" {
										v.load = "split"
										out = append(out, v)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	return out
}

func scalarCandidates() []variant {
	var out []variant
	for _, comp := range []string{"off", "on"} {
		for _, u := range unrolls {
			for _, al := range aligns {
				out = append(out, variant{nr: 1, isa: "scalar", comp: comp, unroll: u, align: al})
			}
		}
	}
	for _, regs := range []string{"", "acc"} {
		for _, u := range unrolls {
			for _, al := range aligns {
				out = append(out, variant{nr: 1, isa: "scalar", comp: "off", rot: "rorx", chi: "andn", regs: regs, unroll: u, align: al})
				if regs == "acc" {
					out = append(out, variant{nr: 1, isa: "scalar", comp: "on", regs: regs, unroll: u, align: al})
				}
			}
		}
	}
	return out
}

// rowsCandidates are single-state AVX-512 variants with the five rows in
// zmm registers (VPROLVQ for rho, VPERMT2Q for pi, VPERMQ for chi).
func rowsCandidates() []variant {
	var out []variant
	for _, u := range unrolls {
		for _, al := range aligns {
			out = append(out, variant{nr: 1, isa: "avx512f", layout: "rows", rot: "prolv", chi: "ternlog", regs: "all", unroll: u, align: al})
		}
	}
	return out
}

// groups are the values of the group knob: AVX2 computes 8 states as two
// groups of 4.
func groups(nr int, isa string) []string {
	if nr == 8 && isa == "avx2" {
		return []string{"interleave", "seq"}
	}
	return []string{""}
}

func xposes(nr int) []string {
	if nr == 1 {
		return []string{""}
	}
	if nr == 2 {
		return []string{"unpack", "gather"} // one unpack per lane already
	}
	return []string{"unpack", "gather", "insert"}
}

// bases are the offset-sweep bases of kernel keccak.x<nr>, one per ISA
// tier a host may have: the best-known variant without AVX-512 (scalar for
// one state, AVX2 otherwise), then on AVX-512. Each base's loop head is
// swept over 64+N offsets for `tunelab align`; bases iterate their loop
// (unroll 1 or 2), so that an align=none sibling exists to compare with.
func bases(nr int) []variant {
	a64 := asmalign.At(0)
	v3 := variant{nr: nr, isa: "avx2", rot: "shiftor", chi: "andnxor", regs: "spill", unroll: 2, xpose: "unpack", align: a64}
	switch nr {
	case 1:
		v3 = variant{nr: 1, isa: "scalar", comp: "on", unroll: 2, align: a64}
	case 2:
		v3.unroll = 1
	case 8:
		v3.group, v3.unroll = "interleave", 1
	}
	v4 := variant{nr: nr, isa: "avx512vl", rot: "prol", chi: "ternlog", regs: "all", unroll: 2, xpose: "unpack", align: a64}
	switch nr {
	case 1:
		v4.layout, v4.xpose = "lanes", ""
	case 8:
		v4.isa = "avx512f"
	}
	return []variant{v3, v4}
}

// offsetSweep returns the align=64+N members (N = 4, 8, ..., 60) of base.
func offsetSweep(base variant) []variant {
	var out []variant
	for n := 4; n < 64; n += 4 {
		v := base
		v.align, v.sweep = asmalign.At(n), true
		out = append(out, v)
	}
	return out
}
