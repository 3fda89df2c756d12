package ctcheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"slices"
	"strings"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
)

// Args classifies the parameters of a generator's functions by name.
// Every parameter of every function must be in exactly one list.
type Args struct {
	// Secret lists parameters whose value is secret (a scalar) or whose
	// pointed-to memory is (a pointer or slice: its base; length and
	// capacity stay public).
	Secret []string
	// Public lists lengths, counts, strides and pointers to public data.
	Public []string
}

// A param is one parameter of a function and its region.
type param struct {
	name   string
	shape  string // "ptr", "slice" (also string), "value"
	secret bool
}

// A paramMap maps the FP symbols of a function's arguments (x, x_base,
// x_len, x_cap, ...) to its parameters.
type paramMap struct {
	params []param
}

// anySecret reports whether any parameter is secret.
func (pm *paramMap) anySecret() bool {
	for _, p := range pm.params {
		if p.secret {
			return true
		}
	}
	return false
}

// mapParams classifies fn's parameters by args.
func mapParams(fn *ir.Function, args Args) (*paramMap, error) {
	sig := "func" + fn.Signature.String()
	e, err := parser.ParseExpr(sig)
	if err != nil {
		return nil, fmt.Errorf("function %s: parsing signature %q: %w", fn.Name, sig, err)
	}
	ft, ok := e.(*ast.FuncType)
	if !ok {
		return nil, fmt.Errorf("function %s: signature %q is not a function type", fn.Name, sig)
	}
	pm := &paramMap{}
	for _, f := range ft.Params.List {
		for _, n := range f.Names {
			sec, pub := slices.Contains(args.Secret, n.Name), slices.Contains(args.Public, n.Name)
			switch {
			case sec && pub:
				return nil, fmt.Errorf("function %s: parameter %s is declared both secret and public", fn.Name, n.Name)
			case !sec && !pub:
				return nil, fmt.Errorf("function %s: parameter %s is declared neither secret nor public", fn.Name, n.Name)
			}
			pm.params = append(pm.params, param{name: n.Name, shape: shapeOf(f.Type), secret: sec})
		}
		if len(f.Names) == 0 {
			return nil, fmt.Errorf("function %s: unnamed parameter of type %s cannot be declared", fn.Name, sig)
		}
	}
	return pm, nil
}

func shapeOf(t ast.Expr) string {
	switch t := t.(type) {
	case *ast.StarExpr:
		return "ptr"
	case *ast.ArrayType:
		if t.Len == nil {
			return "slice"
		}
	case *ast.Ident:
		if t.Name == "string" {
			return "slice"
		}
		if t.Name == "uintptr" {
			return "ptr"
		}
	case *ast.SelectorExpr:
		if t.Sel.Name == "Pointer" {
			return "ptr"
		}
	}
	return "value"
}

// arg returns the value of the argument slot named sym (as avo names FP
// symbols: x, x_base, x_len, x_cap, x_0, ...), loaded by instruction i.
// Unknown symbols (results) are public.
func (pm *paramMap) arg(sym string, i int) val {
	for k, p := range pm.params {
		if sym != p.name && !strings.HasPrefix(sym, p.name+"_") {
			continue
		}
		part := strings.TrimPrefix(sym, p.name)
		switch {
		case p.shape == "ptr" && part == "", p.shape == "slice" && part == "_base":
			return val{org: -1, ptr: 1 << (rArgs + k)}
		case p.shape == "slice": // length, capacity
			return public
		case p.secret:
			return secretAt(i)
		default:
			return public
		}
	}
	return public
}

// A memKind is how a memory operand addresses memory.
type memKind int

const (
	memArg   memKind = iota // name+off(FP): an argument slot
	memData                 // sym(SB): static data
	memStack                // off(SP): the local frame
	memReg                  // through a general-purpose register
)

func classify(m operand.Mem) memKind {
	if m.Base != nil {
		switch kindOf(m.Base) {
		case kFP:
			return memArg
		case kSB:
			return memData
		case kSP:
			return memStack
		}
		return memReg
	}
	if m.Symbol.Name != "" {
		return memData
	}
	return memReg
}

// addrVal is the value of m's address: the join of its base and index
// registers (with their pointer provenance), or the region it names; a
// frame address carries its offset when it is constant.
func (a *analysis) addrVal(s *state, m operand.Mem) val {
	v := public
	switch classify(m) {
	case memData:
		v.ptr = 1 << rData
	case memStack:
		v = frame(m.Disp)
	case memReg:
		if p := s.reg(m.Base); p != nil {
			v = p.moved(m.Disp, true)
		}
	}
	if m.Index != nil {
		if p := s.reg(m.Index); p != nil {
			iv := *p
			if kindOf(m.Index) != kGP {
				iv = iv.data() // a VSIB index vector is no pointer
			}
			v = v.join(iv).moved(0, false)
		}
	}
	return v
}

// A target is what a memory access w bytes wide may touch: argument and
// data regions, and the frame: slots [lo, hi) if known, else any.
type target struct {
	regions regions // besides the frame
	frame   bool
	known   bool
	lo, hi  int
	disp    int  // byte offset of the access in the frame, if known
	only    bool // the frame is the only target (a store may overwrite)
}

func (a *analysis) target(s *state, m operand.Mem, w int) target {
	v := a.addrVal(s, m)
	ptr := v.ptr
	if classify(m) == memReg && ptr == 0 { // a pointer of unknown origin: anything
		ptr = ^regions(0) >> (64 - len(a.region))
		v.offOK = false
	}
	t := target{regions: ptr &^ (1 << rStack), frame: ptr&(1<<rStack) != 0}
	if t.frame && v.offOK {
		if lo, hi, ok := a.slotRange(int(v.off), w); ok {
			t.known, t.lo, t.hi, t.disp = true, lo, hi, int(v.off)
		}
	}
	t.only = t.frame && t.regions == 0
	return t
}

// slotRange returns the frame slots [lo, hi) that bytes [disp, disp+w) of
// the frame touch, and whether they lie within the frame.
func (a *analysis) slotRange(disp, w int) (lo, hi int, ok bool) {
	if disp < 0 || disp+w > a.slots*8 {
		return 0, 0, false
	}
	return disp / 8, (disp + w + 7) / 8, true
}

// load returns the value loaded by instruction i from m, w bytes wide.
func (a *analysis) load(s *state, m operand.Mem, w, i int) val {
	if classify(m) == memArg {
		return a.params.arg(m.Symbol.Name, i)
	}
	t := a.target(s, m, w)
	v := public
	for r := range a.region {
		if r != rStack && t.regions&(1<<r) != 0 {
			v = v.join(a.regionVal(r, i))
		}
	}
	switch {
	case t.frame && t.known:
		v = v.join(a.regionVal(rStack, i))
		for _, x := range s.stack[t.lo:t.hi] {
			if t.only && t.hi-t.lo == 1 {
				v = v.join(x) // a whole slot: a spilled pointer keeps its provenance
			} else {
				v = v.join(x.data())
			}
		}
	case t.frame:
		v = v.join(a.wholeStack(s, i))
	}
	return v
}

// regionVal is a load from region r at instruction i.
func (a *analysis) regionVal(r, i int) val {
	if a.region[r] {
		return secretAt(i)
	}
	return public
}

// wholeStack is a load from an unknown place in the frame.
func (a *analysis) wholeStack(s *state, i int) val {
	v := a.regionVal(rStack, i)
	for _, x := range s.stack {
		v = v.join(x.data())
	}
	return v
}

// store records that v is stored to m, w bytes wide; strong marks a store
// that overwrites those bytes entirely (a plain move from a register of
// that width), so whole slots it covers take v instead of merging when
// the frame is the only place the access may go.
func (a *analysis) store(s *state, m operand.Mem, v val, w int, strong bool) {
	if classify(m) == memArg {
		return // results
	}
	t := a.target(s, m, w)
	for r := range a.region {
		if r != rStack && t.regions&(1<<r) != 0 {
			a.taintRegion(r, v)
		}
	}
	switch {
	case t.frame && t.known:
		for k := t.lo; k < t.hi; k++ {
			covered := t.disp <= 8*k && 8*k+8 <= t.disp+w
			if strong && covered && t.only {
				s.stack[k] = v
			} else {
				s.stack[k] = s.stack[k].join(v)
			}
		}
	case t.frame:
		a.taintRegion(rStack, v)
	}
}

func (a *analysis) taintRegion(r int, v val) {
	if v.sec {
		a.region[r] = true
	}
}
