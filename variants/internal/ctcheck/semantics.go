package ctcheck

import (
	"reflect"
	"regexp"
	"strings"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
)

// The arithmetic flags, one taint bit each: a Jcc, CMOVcc or SETcc reads
// only the flags its condition names, so a loop's DECQ; JNZ stays public
// after an ADCQ on a secret left CF tainted.
type flags uint8

const (
	fCF flags = 1 << iota
	fPF
	fAF
	fZF
	fSF
	fOF
	nFlags   = 6
	allFlags = fCF | fPF | fAF | fZF | fSF | fOF
)

// A flagEffect is what an instruction does to the flags: reads, sets from
// its inputs (set), clears to a constant (clear), or may set from its
// inputs or leave (maybe: shifts by CL, whose count may be 0).
type flagEffect struct{ read, set, clear, maybe flags }

// gpFlags maps general-purpose opcodes, without their B/W/L/Q size
// suffix, to their flag effect (Intel SDM vol. 2, "Flags Affected";
// undefined flags count as set from the inputs, since their value may
// depend on them).
var gpFlags = map[string]flagEffect{
	"ADD": {set: allFlags}, "SUB": {set: allFlags}, "CMP": {set: allFlags},
	"NEG": {set: allFlags}, "XADD": {set: allFlags}, "CMPXCHG": {set: allFlags},
	"ADC": {read: fCF, set: allFlags}, "SBB": {read: fCF, set: allFlags},
	"AND":  {set: fPF | fZF | fSF | fAF, clear: fCF | fOF},
	"OR":   {set: fPF | fZF | fSF | fAF, clear: fCF | fOF},
	"XOR":  {set: fPF | fZF | fSF | fAF, clear: fCF | fOF},
	"TEST": {set: fPF | fZF | fSF | fAF, clear: fCF | fOF},
	"INC":  {set: allFlags &^ fCF}, "DEC": {set: allFlags &^ fCF},
	"MUL": {set: allFlags}, "IMUL": {set: allFlags}, "IMUL3": {set: allFlags},
	"DIV": {set: allFlags}, "IDIV": {set: allFlags},
	"BT": {set: allFlags}, "BTS": {set: allFlags}, "BTR": {set: allFlags}, "BTC": {set: allFlags},
	"BSF": {set: allFlags}, "BSR": {set: allFlags},
	"LZCNT": {set: allFlags}, "TZCNT": {set: allFlags}, "POPCNT": {set: allFlags},
	"ANDN": {set: allFlags}, "BEXTR": {set: allFlags}, "BZHI": {set: allFlags},
	"BLSI": {set: allFlags}, "BLSMSK": {set: allFlags}, "BLSR": {set: allFlags},
	"ADCX": {read: fCF, set: fCF}, "ADOX": {read: fOF, set: fOF},
	// No flags: moves, address arithmetic, BMI2's flag-free forms.
	"MOV": {}, "MOVBQZX": {}, "MOVBLZX": {}, "MOVBWZX": {}, "MOVWQZX": {}, "MOVWLZX": {},
	"MOVBQSX": {}, "MOVBLSX": {}, "MOVBWSX": {}, "MOVWQSX": {}, "MOVWLSX": {}, "MOVLQZX": {}, "MOVLQSX": {},
	"MOVBE": {}, "LEA": {}, "NOT": {}, "BSWAP": {}, "XCHG": {}, "MULX": {},
	"SHLX": {}, "SHRX": {}, "SARX": {}, "RORX": {}, "PDEP": {}, "PEXT": {},
	"CQO": {}, "CDQ": {}, "CWD": {}, "CPUID": {}, "RDTSC": {}, "RDTSCP": {},
	"LFENCE": {}, "MFENCE": {}, "SFENCE": {}, "PAUSE": {}, "NOP": {},
	"PCALIGN": {}, "BYTE": {}, "RET": {}, "JMP": {}, "PREFETCHT0": {}, "PREFETCHT1": {},
	"PREFETCHT2": {}, "PREFETCHNTA": {},
}

// shiftOps set the flags from their inputs for a nonzero count; by CL
// they may leave them.
var shiftOps = map[string]flagEffect{
	"SHL": {set: allFlags}, "SAL": {set: allFlags}, "SHR": {set: allFlags}, "SAR": {set: allFlags},
	"SHLD": {set: allFlags}, "SHRD": {set: allFlags},
	"ROL": {set: fCF | fOF}, "ROR": {set: fCF | fOF},
	"RCL": {read: fCF, set: fCF | fOF}, "RCR": {read: fCF, set: fCF | fOF},
}

// vectorFlags are the vector and mask instructions that write flags; every
// other vector, mask or SSE instruction leaves them.
var vectorFlags = map[string]flagEffect{
	"PTEST": {set: fZF | fCF, clear: fPF | fAF | fSF | fOF}, "VPTEST": {set: fZF | fCF, clear: fPF | fAF | fSF | fOF},
	"VTESTPS": {set: fZF | fCF, clear: fPF | fAF | fSF | fOF}, "VTESTPD": {set: fZF | fCF, clear: fPF | fAF | fSF | fOF},
	"COMISS": {set: fZF | fPF | fCF, clear: fOF | fSF | fAF}, "COMISD": {set: fZF | fPF | fCF, clear: fOF | fSF | fAF},
	"UCOMISS": {set: fZF | fPF | fCF, clear: fOF | fSF | fAF}, "UCOMISD": {set: fZF | fPF | fCF, clear: fOF | fSF | fAF},
	"VCOMISS": {set: fZF | fPF | fCF, clear: fOF | fSF | fAF}, "VCOMISD": {set: fZF | fPF | fCF, clear: fOF | fSF | fAF},
	"VUCOMISS": {set: fZF | fPF | fCF, clear: fOF | fSF | fAF}, "VUCOMISD": {set: fZF | fPF | fCF, clear: fOF | fSF | fAF},
	"PCMPESTRI": {set: allFlags}, "PCMPESTRM": {set: allFlags}, "PCMPISTRI": {set: allFlags}, "PCMPISTRM": {set: allFlags},
	"VPCMPESTRI": {set: allFlags}, "VPCMPESTRM": {set: allFlags}, "VPCMPISTRI": {set: allFlags}, "VPCMPISTRM": {set: allFlags},
}

// conditions maps a condition code, as avo spells it in Jcc, CMOVcc and
// SETcc, to the flags it reads.
var conditions = map[string]flags{
	"EQ": fZF, "E": fZF, "Z": fZF, "NE": fZF, "NZ": fZF,
	"CS": fCF, "B": fCF, "C": fCF, "LO": fCF, "NAE": fCF,
	"CC": fCF, "AE": fCF, "NB": fCF, "NC": fCF, "HS": fCF,
	"HI": fCF | fZF, "A": fCF | fZF, "NBE": fCF | fZF,
	"LS": fCF | fZF, "BE": fCF | fZF, "NA": fCF | fZF,
	"GE": fSF | fOF, "NL": fSF | fOF, "LT": fSF | fOF, "L": fSF | fOF, "NGE": fSF | fOF,
	"GT": fZF | fSF | fOF, "G": fZF | fSF | fOF, "NLE": fZF | fSF | fOF,
	"LE": fZF | fSF | fOF, "NG": fZF | fSF | fOF,
	"MI": fSF, "S": fSF, "PL": fSF, "NS": fSF,
	"OS": fOF, "O": fOF, "OC": fOF, "NO": fOF,
	"PS": fPF, "P": fPF, "PE": fPF, "PC": fPF, "NP": fPF, "PO": fPF,
}

// condition returns the flags a conditional instruction reads (Jcc,
// CMOVcc, SETcc) and whether it is one.
func condition(op string) (flags, bool) {
	switch {
	case strings.HasPrefix(op, "CMOV") && len(op) > 5:
		f, ok := conditions[op[5:]] // CMOV + size letter + condition
		return f, ok
	case strings.HasPrefix(op, "SET"):
		f, ok := conditions[op[3:]]
		return f, ok
	case strings.HasPrefix(op, "J") && op != "JMP" && !strings.HasPrefix(op, "JCXZ"):
		f, ok := conditions[op[1:]]
		return f, ok
	}
	return 0, false
}

// baseOp returns op without its B/W/L/Q operand-size suffix if that names
// a general-purpose opcode of table, and whether it does.
func baseOp(op string, table map[string]flagEffect) (string, bool) {
	if _, ok := table[op]; ok {
		return op, true
	}
	if n := len(op); n > 1 && strings.ContainsRune("BWLQ", rune(op[n-1])) {
		if _, ok := table[op[:n-1]]; ok {
			return op[:n-1], true
		}
	}
	return "", false
}

// flagEffectOf returns the flag effect of inst. An opcode the tables do not
// know is assumed to maybe set every flag from its inputs if it is a
// general-purpose instruction (conservative: it can only add taint), and
// to leave the flags if it is a vector, mask or SSE instruction (which
// write flags only as vectorFlags lists).
func flagEffectOf(inst *ir.Instruction) flagEffect {
	op := inst.Opcode
	if f, ok := condition(op); ok {
		return flagEffect{read: f}
	}
	if b, ok := baseOp(op, gpFlags); ok {
		return gpFlags[b]
	}
	if b, ok := baseOp(op, shiftOps); ok {
		e := shiftOps[b]
		switch c := inst.Operands[0].(type) {
		case operand.Constant:
			if constValue(c) == 0 {
				return flagEffect{}
			}
			return e
		default: // count in CL: may be 0
			return flagEffect{read: e.read, maybe: e.set}
		}
	}
	if e, ok := vectorFlags[op]; ok {
		return e
	}
	if isVectorOrMask(inst) {
		return flagEffect{}
	}
	return flagEffect{maybe: allFlags}
}

// isVectorOrMask reports whether inst is a VEX/EVEX, mask or SSE
// instruction: it names a vector or mask register, or its opcode is one
// of the vector extensions' (V..., K...).
func isVectorOrMask(inst *ir.Instruction) bool {
	if strings.HasPrefix(inst.Opcode, "V") || strings.HasPrefix(inst.Opcode, "K") {
		return true
	}
	for _, r := range inst.Registers() {
		if k := kindOf(r); k == kVec || k == kMask {
			return true
		}
	}
	return false
}

// variableLatency matches the opcodes whose latency depends on their
// operands: integer division (DIV, IDIV: the quotient's size sets the
// iterations), floating-point division and square root, floating-point
// arithmetic that a subnormal operand sends to a microcode assist, and
// PDEP/PEXT (microcoded, mask-dependent on AMD Zen 1 and 2).
var variableLatency = regexp.MustCompile(`^(I?DIV[BWLQ]|V?(DIV|SQRT|ADD|SUB|MUL)(SS|SD|PS|PD|SH|PH)|VF(N?)M(ADD|SUB|ADDSUB|SUBADD)(132|213|231)(SS|SD|PS|PD|SH|PH)|PDEP[LQ]|PEXT[LQ])$`)

// latencyReason says why an instruction's latency depends on its operands.
func latencyReason(op string) string {
	switch {
	case strings.Contains(op, "DIV") && !strings.HasSuffix(op, "S") && !strings.HasSuffix(op, "D") && !strings.HasSuffix(op, "H"):
		return "integer division takes time that depends on its operands"
	case strings.HasPrefix(op, "PDEP") || strings.HasPrefix(op, "PEXT"):
		return "PDEP/PEXT are microcoded with mask-dependent time on AMD Zen 1 and 2"
	case strings.Contains(op, "DIV") || strings.Contains(op, "SQRT"):
		return "floating-point division and square root take operand-dependent time"
	default:
		return "floating-point arithmetic takes a microcode assist on subnormal operands"
	}
}

// cancelling lists opcodes whose result does not depend on their inputs
// when both sources are the same register (x^x = 0, x-x = 0, x==x):
// avo marks only some of them CancellingInputs.
var cancelling = regexp.MustCompile(`^(XOR[BWLQ]|SUB[BWLQ]|SBB[BWLQ]|V?PXOR|VPXOR[DQ]|V?XORP[SD]|V?PSUB[BWDQ]|V?PCMPEQ[BWDQ]|V?PCMPGT[BWDQ]|V?PANDN|VPANDN[DQ]|KXOR[BWDQ]|KXNOR[BWDQ]|KANDN[BWDQ])$`)

// isCancelling reports whether inst's output is independent of its
// inputs: a cancelling opcode with every register input the same
// register and no memory input. SBB r, r is -CF: it depends on CF, which
// the flags model adds.
func isCancelling(inst *ir.Instruction) bool {
	if !inst.CancellingInputs && !cancelling.MatchString(inst.Opcode) {
		return false
	}
	var first string
	n := 0
	for _, op := range inst.Inputs {
		switch op := op.(type) {
		case operand.Mem:
			return false
		case interface{ Asm() string }:
			if _, ok := op.(operand.Constant); ok {
				return false
			}
			if n == 0 {
				first = op.Asm()
			} else if op.Asm() != first {
				return false
			}
			n++
		}
	}
	return n >= 2
}

// strongStore matches the moves whose memory destination is overwritten
// entirely by a register of the same size, so a stack slot can be
// overwritten rather than merged (a spill of a public loop counter over a
// slot that held a secret makes it public again).
var strongStore = regexp.MustCompile(`^(MOV[BWLQ]|MOVOU|MOVO|MOVOA|MOVUPS|MOVAPS|MOVUPD|MOVAPD|VMOVDQ[AU](8|16|32|64)?|VMOVUP[SD]|VMOVAP[SD]|VMOVQ|VMOVD|MOVQ)$`)

// legacySSE reports whether inst writes an XMM register with a legacy SSE
// encoding, which keeps the upper bits of the YMM/ZMM register.
func legacySSE(inst *ir.Instruction) bool { return !strings.HasPrefix(inst.Opcode, "V") }

// constValue returns an immediate's value, a signed one sign-extended.
func constValue(c operand.Constant) uint64 {
	switch v := reflect.ValueOf(c); {
	case v.CanUint(): // U8 ... U64
		return v.Uint()
	case v.CanInt(): // I8 ... I64
		return uint64(v.Int())
	}
	return 1 // unknown constant kind: assume a nonzero count
}
