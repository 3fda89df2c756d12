package ctcheck

import (
	"github.com/mmcloughlin/avo/reg"
)

// A val is the abstract value of a register, flag or stack slot: whether
// it depends on a secret (and the instruction where the first secret it
// depends on entered the function), and which memory regions it may
// point into (pointer provenance, so that loads through it read the
// region's taint).
type val struct {
	sec bool
	org int32   // instruction index where the secret entered; -1 if !sec
	ptr regions // regions the value may point into
	// off is the byte offset into the local frame of a pointer into it
	// (ptr has rStack), if offOK: LEAQ 16(SP), SI makes (SI) slot 2.
	off   int32
	offOK bool
}

// regions is a set of memory regions (bit i: region i).
type regions uint64

// The fixed regions; argument regions follow, one per pointer or slice
// parameter.
const (
	rStack = iota // the function's local frame
	rData         // static data (DATA/GLOBL symbols)
	rArgs         // the first argument region
)

var public = val{org: -1}

func secretAt(i int) val { return val{sec: true, org: int32(i)} }

// join returns the least upper bound of a and b: secret if either is, the
// earlier origin, both pointer sets.
func (a val) join(b val) val {
	out := val{sec: a.sec || b.sec, org: -1, ptr: a.ptr | b.ptr}
	as, bs := a.ptr&(1<<rStack) != 0, b.ptr&(1<<rStack) != 0
	switch {
	case as && bs:
		out.off, out.offOK = a.off, a.offOK && b.offOK && a.off == b.off
	case as:
		out.off, out.offOK = a.off, a.offOK
	case bs:
		out.off, out.offOK = b.off, b.offOK
	}
	switch {
	case a.sec && b.sec:
		out.org = min(a.org, b.org)
	case a.sec:
		out.org = a.org
	case b.sec:
		out.org = b.org
	}
	return out
}

// data returns v without pointer provenance: a value computed from it, or
// loaded through it, is not a pointer into its regions.
func (v val) data() val { return val{sec: v.sec, org: v.org} }

// frame returns a public pointer to byte off of the local frame.
func frame(off int) val { return val{org: -1, ptr: 1 << rStack, off: int32(off), offOK: true} }

// moved returns v as the result of an instruction that is not a plain
// copy: a pointer into the frame keeps its region but loses its offset,
// unless the instruction adds the constant delta to it (ok).
func (v val) moved(delta int, ok bool) val {
	if ok && v.offOK {
		v.off += int32(delta)
	} else {
		v.offOK = false
	}
	return v
}

// The register kinds the state tracks.
type rkind int

const (
	kOther rkind = iota
	kGP
	kVec
	kMask
	kFP // pseudo-register FP: arguments
	kSB // pseudo-register SB: static data
	kSP // pseudo-register SP or the hardware stack pointer
)

// kindOf classifies a physical register.
func kindOf(r reg.Register) rkind {
	switch r.Kind() {
	case reg.KindGP:
		if r.ID().Index() == 4 { // SP: the hardware stack pointer
			return kSP
		}
		return kGP
	case reg.KindVector:
		return kVec
	case reg.KindOpmask:
		return kMask
	case reg.KindPseudo:
		switch r.Asm() {
		case "FP":
			return kFP
		case "SB":
			return kSB
		case "SP":
			return kSP
		}
	}
	return kOther
}

// A state is the abstract machine state before an instruction: registers,
// flags and the 8-byte slots of the local frame. Memory outside the frame
// is tracked per region, flow-insensitively (see analysis.region).
type state struct {
	gp    [16]val
	vec   [32]val
	mask  [8]val
	flags [nFlags]val
	// flagBy is the instruction that last set each flag (for messages).
	flagBy [nFlags]int32
	stack  []val
}

func newState(slots int) *state {
	s := &state{stack: make([]val, slots)}
	for i := range s.gp {
		s.gp[i] = public
	}
	for i := range s.vec {
		s.vec[i] = public
	}
	for i := range s.mask {
		s.mask[i] = public
	}
	for i := range s.flags {
		s.flags[i], s.flagBy[i] = public, -1
	}
	for i := range s.stack {
		s.stack[i] = public
	}
	return s
}

func (s *state) clone() *state {
	c := *s
	c.stack = append([]val(nil), s.stack...)
	return &c
}

// reg returns the slot of physical register r, or nil for one the state
// does not track (pseudo-registers).
func (s *state) reg(r reg.Register) *val {
	i := int(r.ID().Index())
	switch kindOf(r) {
	case kGP:
		return &s.gp[i]
	case kVec:
		return &s.vec[i]
	case kMask:
		return &s.mask[i]
	}
	return nil
}

// joinFrom merges o into s and reports whether s changed.
func (s *state) joinFrom(o *state) bool {
	changed := false
	merge := func(d *val, v val) {
		j := d.join(v)
		if j != *d {
			*d, changed = j, true
		}
	}
	for i := range s.gp {
		merge(&s.gp[i], o.gp[i])
	}
	for i := range s.vec {
		merge(&s.vec[i], o.vec[i])
	}
	for i := range s.mask {
		merge(&s.mask[i], o.mask[i])
	}
	for i := range s.flags {
		if o.flags[i].sec && !s.flags[i].sec {
			s.flagBy[i] = o.flagBy[i]
		}
		merge(&s.flags[i], o.flags[i])
	}
	for i := range s.stack {
		merge(&s.stack[i], o.stack[i])
	}
	return changed
}

// flagVal returns the join of the flags in f and the instruction that set
// the first secret one (-1 if none is secret).
func (s *state) flagVal(f flags) (val, int32) {
	v, by := public, int32(-1)
	for i := 0; i < nFlags; i++ {
		if f&(1<<i) == 0 {
			continue
		}
		if s.flags[i].sec && by < 0 {
			by = s.flagBy[i]
		}
		v = v.join(s.flags[i].data())
	}
	return v, by
}

// setFlags applies an instruction's flag effect, with v the join of its
// inputs, at instruction index i.
func (s *state) setFlags(e flagEffect, v val, i int) {
	v = v.data()
	for b := 0; b < nFlags; b++ {
		bit := flags(1 << b)
		switch {
		case e.clear&bit != 0:
			s.flags[b], s.flagBy[b] = public, int32(i)
		case e.set&bit != 0:
			s.flags[b], s.flagBy[b] = v, int32(i)
		case e.maybe&bit != 0:
			if v.sec && !s.flags[b].sec {
				s.flagBy[b] = int32(i)
			}
			s.flags[b] = s.flags[b].join(v)
		}
	}
}
