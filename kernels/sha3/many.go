package sha3

// SHAKE128Many absorbs ins[i] into its own SHAKE128 instance and fills
// outs[i] with len(outs[i]) bytes of its output, for every i. It processes
// the streams NR at a time on keccak's NR-state permutation, with NR
// chosen by dispatch for this CPU and len(ins) streams (see the package
// comment); a remainder of fewer than NR streams goes through narrower
// groups. Inputs and outputs may have any lengths; outs[i] must not
// overlap ins[j] or outs[j]. It panics if len(outs) != len(ins).
func SHAKE128Many(outs, ins [][]byte) { shake128Many.run(outs, ins) }

// SHAKE256Many is SHAKE128Many for SHAKE256.
func SHAKE256Many(outs, ins [][]byte) { shake256Many.run(outs, ins) }

// manyGeneric hashes the streams one after another with the single-stream
// sponge: the reference the ways=N code is verified against.
func manyGeneric(outs, ins [][]byte, rate int) {
	for i, in := range ins {
		if len(outs[i]) > 0 {
			sumOneShot(outs[i], in, rate, dsSHAKE)
		}
	}
}

// manyWays hashes the streams in groups of nr (1, 2, 4 or 8) and the
// remainder in groups of nr/2, nr/4, ..., 1.
func manyWays(outs, ins [][]byte, rate, nr int) {
	for w := nr; w >= 1; w /= 2 {
		for len(ins) >= w {
			var g group
			g.absorb(outs[:w], ins[:w], rate)
			g.squeeze(outs[:w], rate)
			outs, ins = outs[w:], ins[w:]
		}
	}
}

// A group is the states of up to eight streams hashed together, and room
// to gather those that still need a permutation when the others are done.
type group struct {
	st      [8][25]uint64
	scratch [8][25]uint64
}

// absorb absorbs ins[i] into state i, block by block, padding each
// stream's last block; after every block it permutes the states that
// absorbed one. Streams with no output are skipped.
func (g *group) absorb(outs, ins [][]byte, rate int) {
	steps := 0
	for i, in := range ins {
		if len(outs[i]) > 0 {
			steps = max(steps, len(in)/rate+1)
		}
	}
	for t := 0; t < steps; t++ {
		active := uint(0)
		for i, in := range ins {
			full := len(in) / rate
			switch {
			case len(outs[i]) == 0 || t > full:
				continue
			case t < full:
				xorBlock(&g.st[i], in[t*rate:(t+1)*rate])
			default:
				xorPadded(&g.st[i], in[t*rate:], rate, dsSHAKE)
			}
			active |= 1 << i
		}
		g.permute(active, len(ins))
	}
}

// squeeze writes each stream's output, a block at a time, permuting the
// states whose output continues after every block.
func (g *group) squeeze(outs [][]byte, rate int) {
	for off := 0; ; off += rate {
		active := uint(0)
		for i, out := range outs {
			if off >= len(out) {
				continue
			}
			extract(out[off:min(len(out), off+rate)], &g.st[i], 0)
			if off+rate < len(out) {
				active |= 1 << i
			}
		}
		if active == 0 {
			return
		}
		g.permute(active, len(outs))
	}
}

// permute permutes the states of the group of width w whose bits are set
// in active: all w in place when all are, else the active ones gathered
// into the narrowest group that holds them and scattered back, so that no
// finished state is permuted again.
func (g *group) permute(active uint, w int) {
	if active == 1<<w-1 {
		permuteStates(g.st[:w])
		return
	}
	var idx [8]int
	k := 0
	for i := 0; i < w; i++ {
		if active>>i&1 == 1 {
			idx[k] = i
			g.scratch[k] = g.st[i]
			k++
		}
	}
	if k == 0 {
		return
	}
	permuteStates(g.scratch[:width(k)])
	for j := 0; j < k; j++ {
		g.st[idx[j]] = g.scratch[j]
	}
}

// width returns the narrowest group width (1, 2, 4 or 8) of at least k
// states.
func width(k int) int {
	w := 1
	for w < k {
		w *= 2
	}
	return w
}
