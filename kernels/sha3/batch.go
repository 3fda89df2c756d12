package sha3

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/internal/escape"
	"github.com/tunelab/tunelab/kernels/variant"
)

// MaxJobs is the most sponges one Batch holds: ML-DSA-87's 56 matrix
// streams with its 15 secret vector streams (key generation).
const MaxJobs = 72

// A Batch computes many independent sponges at once (SHAKE128, SHAKE256,
// SHA3-256, SHA3-512, each with its own input and output length) on
// keccak's NR-state permutations, scheduling their permutations on the
// NR lanes: a lane that finishes a sponge takes the next one at once, the
// sponges with the longest chain of permutations first, so that one long
// stream (an ML-KEM encapsulation key's hash) runs beside many short ones
// (the matrix streams) instead of after them. A sponge may wait for
// another's output (After), which then forms part of its input. A sponge
// may also be the absorption of a message's prefix into a SHA3 or SHAKE
// that the caller completes afterwards (Absorb, AbsorbSHAKE). Once at
// most half the lanes are busy, narrower permutations run them.
//
// A sponge has a fixed output (SHAKE128, SHA3_256, ...: written into the
// caller's slice) or is a stream (Stream128, Stream256): an XOF whose
// output blocks Next hands to the caller in place, straight from the
// Keccak state, until the caller says it has enough (Done), so that a
// rejection sampler reads the XOF without a copy and without squeezing
// blocks ahead that it may not need. A batch with streams is driven by
// Next; one without by Run.
//
// NR is the dispatched "ways" of shake128.many for the number of sponges
// where the compiled table or an override names one (UseWays,
// TUNELAB_DISPATCH); elsewhere the Batch simulates its schedule for
// every NR and takes the cheapest under a cost model of the permutation
// widths dispatch selected on this CPU (see laneCosts).
//
// A Batch is large (MaxJobs sponges and eight states); callers keep it on
// the stack, and nothing it is given escapes. Outputs must not overlap
// inputs or each other. Results are complete when Run, or Next reporting
// false, returns; a Batch is then empty and may be reused.
type Batch struct {
	n     int
	jobs  [MaxJobs]job
	order [MaxJobs]int8 // jobs by decreasing chain, then index
	st    [8][25]uint64
	lane  [8]int8 // job in each lane, -1 for none
	deps  bool    // some sponge waits for another

	// The schedule in progress: running, its width and the cursor of
	// next in order; the lanes whose stream squeezed a block in the last
	// step (events), delivered up to ev.
	running   bool
	w, cursor int
	events    [8]int8
	nev, ev   int
	blk       [8][maxRate]byte // blocks of streams on big-endian machines
}

// A job is one sponge of a Batch and its progress.
type job struct {
	in     [3][]byte // input pieces, concatenated
	out    []byte
	inLen  int
	rate   int32
	absorb int32 // permutations that absorb a block (the last one padded)
	perms  int32 // permutations in all (a stream: expected)
	chain  int32 // perms plus those of the sponges waiting for this one
	done   int32 // permutations run
	ds     byte
	after  int8 // sponge whose output must be complete first, -1 for none
	stream bool
	state  uint8
	// st is the state an absorption (Absorb) starts from and leaves its
	// result in; nil for the other sponges, which start from zero.
	st *[25]uint64
}

// Job states.
const (
	pending uint8 = iota
	running
	finished
)

// maxStreamPerms bounds a stream's permutations: a caller that never says
// Done would otherwise run forever.
const maxStreamPerms = 1 << 20

// Reset empties b for reuse, abandoning a schedule in progress.
func (b *Batch) Reset() { b.n, b.deps, b.running = 0, false, false }

// Len returns the number of sponges added since the last Reset.
func (b *Batch) Len() int { return b.n }

// SHAKE128 adds SHAKE128(in...) of len(out) bytes into out and returns
// its index for After.
func (b *Batch) SHAKE128(out []byte, in ...[]byte) int { return b.add(out, rate128X, dsSHAKE, in, 0) }

// SHAKE256 adds SHAKE256(in...) of len(out) bytes into out.
func (b *Batch) SHAKE256(out []byte, in ...[]byte) int { return b.add(out, rate256X, dsSHAKE, in, 0) }

// SHA3_256 adds SHA3-256(in...) into out.
func (b *Batch) SHA3_256(out *[32]byte, in ...[]byte) int {
	return b.add(out[:], rate256, dsSHA3, in, 0)
}

// SHA3_512 adds SHA3-512(in...) into out.
func (b *Batch) SHA3_512(out *[64]byte, in ...[]byte) int {
	return b.add(out[:], rate512, dsSHA3, in, 0)
}

// Stream128 adds the stream SHAKE128(in...), whose 168-byte blocks Next
// returns until Done; expect is the number of blocks the caller expects
// to need, for the schedule.
func (b *Batch) Stream128(expect int, in ...[]byte) int {
	return b.add(nil, rate128X, dsSHAKE, in, expect)
}

// Absorb adds the absorption of the whole blocks of in into h, which
// must hold no partial block and not have been read from (as after New256
// and writes of whole blocks), and returns how many bytes of in that is
// (-1 and nothing added if less than a block): the caller writes the rest
// to h once the batch is complete. So the prefix of a long message, known
// before the rest, is hashed on a lane beside the batch's other sponges
// (ML-KEM key generation: the first rows of its encapsulation key beside
// the streams of Â's last row) instead of after them. h is read and
// written only during Run or Next.
func (b *Batch) Absorb(h *SHA3, in []byte) int {
	h.setup()
	return b.absorbInto(&h.s, in)
}

// AbsorbSHAKE is Absorb for a SHAKE or cSHAKE that has not been read
// from (ML-DSA key generation: H(pk)'s prefix beside Â's last rows).
func (b *Batch) AbsorbSHAKE(h *SHAKE, in []byte) int {
	h.setup()
	return b.absorbInto(&h.s, in)
}

// absorbInto adds the absorption of in's whole blocks into s (Absorb).
func (b *Batch) absorbInto(s *sponge, in []byte) int {
	if s.n != 0 || s.squeezing {
		panic("sha3: Batch.Absorb into a sponge with a partial block or being read")
	}
	blocks := len(in) / s.rate
	if blocks == 0 {
		return -1
	}
	n := blocks * s.rate
	b.add(nil, s.rate, s.dsbyte, [][]byte{in[:n]}, 0)
	j := &b.jobs[b.n-1]
	j.absorb, j.perms, j.st = int32(blocks), int32(blocks), escape.Hide(&s.a)
	return n
}

// Stream256 is Stream128 for SHAKE256 (136-byte blocks).
func (b *Batch) Stream256(expect int, in ...[]byte) int {
	return b.add(nil, rate256X, dsSHAKE, in, expect)
}

// After makes sponge i start only once sponge first is complete: i's
// input may then include first's output. first must not be a stream.
func (b *Batch) After(i, first int) {
	if first < 0 || first >= i || i >= b.n || b.jobs[first].stream {
		panic(fmt.Sprintf("sha3: Batch.After(%d, %d) with %d sponges: want first < i < %d, first no stream", i, first, b.n, b.n))
	}
	b.jobs[i].after = int8(first)
	b.deps = true
}

// add records a sponge (a stream of expect blocks if expect > 0). Its
// slices are hidden from escape analysis: b only reads and writes them
// during Run or Next, which the caller calls before its frame returns.
func (b *Batch) add(out []byte, rate int, ds byte, in [][]byte, expect int) int {
	if b.n == MaxJobs {
		panic("sha3: more than MaxJobs sponges in a Batch")
	}
	if len(in) > len(b.jobs[0].in) {
		panic("sha3: a Batch sponge takes at most three input pieces")
	}
	j := &b.jobs[b.n]
	*j = job{out: escape.HideBytes(out), rate: int32(rate), ds: ds, after: -1, stream: expect > 0}
	inLen := 0
	for k, p := range in {
		j.in[k] = escape.HideBytes(p)
		inLen += len(p)
	}
	absorb := inLen/rate + 1
	perms := absorb + max(0, (len(out)+rate-1)/rate-1)
	if expect > 0 {
		perms = absorb + expect - 1
	}
	j.inLen, j.absorb, j.perms = inLen, int32(absorb), int32(perms)
	b.n++
	return b.n - 1
}

// Run computes every sponge added since the last Reset, which must all
// have fixed outputs, and empties b.
func (b *Batch) Run() {
	for {
		if _, _, ok := b.Next(); !ok {
			return
		}
		panic("sha3: Batch.Run with streams: use Next")
	}
}

// Next runs the schedule until a stream has squeezed a block and returns
// the stream's index and the block, valid until the next call of Next;
// the caller calls Done once the stream has given enough. Next returns ok
// = false when every sponge is complete: b is then empty.
func (b *Batch) Next() (i int, block []byte, ok bool) {
	if !b.running {
		if !b.begin() {
			return -1, nil, false
		}
	}
	for b.ev == b.nev {
		if !b.step() {
			b.Reset()
			return -1, nil, false
		}
	}
	l := int(b.events[b.ev])
	b.ev++
	return int(b.lane[l]), b.block(l), true
}

// Done marks stream i as complete: Next returns no more of its blocks.
func (b *Batch) Done(i int) { b.jobs[i].state = finished }

// begin starts the schedule on the lane count dispatch or the cost model
// chooses; with the generic choice it computes the fixed-output sponges
// one after another and reports false if there are no streams.
func (b *Batch) begin() bool {
	nr, auto := batchWays(b.n)
	if nr == 0 && !auto {
		// The reference: fixed outputs one after another, then the
		// streams one at a time.
		if b.runGeneric() {
			b.Reset()
			return false
		}
		nr = 1
	}
	b.prioritize()
	if auto {
		nr = b.cheapest()
	}
	b.start(nr)
	return true
}

// run computes the fixed-output sponges on nr lanes (nr = 0: one after
// another with the single-stream sponge, the reference) and empties b.
func (b *Batch) run(nr int) {
	defer b.Reset()
	if nr == 0 {
		b.runGeneric()
		return
	}
	b.prioritize()
	b.start(nr)
	for b.step() {
	}
}

// start begins a schedule on nr lanes.
func (b *Batch) start(nr int) {
	b.w = min(nr, width(b.n))
	for i := range b.lane {
		b.lane[i] = -1
	}
	b.cursor, b.nev, b.ev, b.running = 0, 0, 0, true
}

// step runs one permutation call: it frees the lanes of complete sponges,
// gives idle lanes the ready sponges with the longest chains, narrows the
// group once at most half its lanes are busy, absorbs, permutes and
// squeezes (fixed outputs into their slices, stream blocks as events).
// It reports false when no sponge is left.
func (b *Batch) step() bool {
	active := b.fill()
	if active == 0 {
		return false
	}
	for l := range b.w {
		if j := b.lane[l]; j >= 0 {
			b.jobs[j].absorbNext(&b.st[l])
		}
	}
	permuteStates(b.st[:b.w])
	b.nev, b.ev = 0, 0
	for l := range b.w {
		j := b.lane[l]
		if j < 0 {
			continue
		}
		jb := &b.jobs[j]
		jb.done++
		if jb.done < jb.absorb {
			continue
		}
		if !jb.stream {
			jb.squeezeNext(&b.st[l])
			continue
		}
		if jb.done > jb.absorb+maxStreamPerms {
			panic("sha3: a Batch stream was never Done")
		}
		b.events[b.nev] = int8(l)
		b.nev++
	}
	return true
}

// fill frees the lanes of complete sponges, fills idle lanes, narrows the
// group and returns the number of busy lanes.
func (b *Batch) fill() int {
	active := 0
	for l := range b.w {
		if j := b.lane[l]; j >= 0 && b.jobs[j].state == finished {
			b.lane[l] = -1
		}
		if b.lane[l] < 0 {
			if j := b.next(&b.cursor); j >= 0 {
				b.lane[l] = int8(j)
				b.jobs[j].state = running
				b.st[l] = [25]uint64{}
				if st := b.jobs[j].st; st != nil {
					b.st[l] = *st
				}
			}
		}
		if b.lane[l] >= 0 {
			active++
		}
	}
	for b.w > 1 && active <= b.w/2 {
		b.compact(b.w, true)
		b.w /= 2
	}
	return active
}

// block returns the first rate bytes of lane l's state, in place on a
// little-endian machine.
func (b *Batch) block(l int) []byte {
	rate := int(b.jobs[b.lane[l]].rate)
	if littleEndian {
		return unsafe.Slice((*byte)(unsafe.Pointer(&b.st[l])), rate)
	}
	extract(b.blk[l][:rate], &b.st[l], 0)
	return b.blk[l][:rate]
}

// simulate returns the cost of the schedule on nr lanes under costs (the
// sum over permutation calls of costs[width]), streams taking their
// expected blocks; it touches no state or output.
func (b *Batch) simulate(nr int, costs *[9]float64) float64 {
	var lane [8]int8
	var done [MaxJobs]int32
	var state [MaxJobs]uint8
	for i := range lane {
		lane[i] = -1
	}
	w, cursor, cost := min(nr, width(b.n)), 0, 0.0
	for {
		active := 0
		for l := range w {
			if lane[l] < 0 {
				if j := b.nextIn(&state, &cursor); j >= 0 {
					lane[l], state[j] = int8(j), running
				}
			}
			if lane[l] >= 0 {
				active++
			}
		}
		if active == 0 {
			return cost
		}
		for w > 1 && active <= w/2 {
			dst := 0
			for l := range w {
				if lane[l] >= 0 {
					lane[dst] = lane[l]
					if dst != l {
						lane[l] = -1
					}
					dst++
				}
			}
			w /= 2
		}
		cost += costs[w]
		for l := range w {
			if j := lane[l]; j >= 0 {
				if done[j]++; done[j] == b.jobs[j].perms {
					state[j], lane[l] = finished, -1
				}
			}
		}
	}
}

// cheapest returns the lane count whose simulated schedule costs least
// under laneCosts (the narrower on a tie), remembered per batch shape
// (see shapeCache).
func (b *Batch) cheapest() int {
	sig := b.shape()
	slot := &shapeCache[sig%uint64(len(shapeCache))]
	if v := slot.Load(); v>>8 == sig {
		return int(v & 0xff)
	}
	costs := currentLaneCosts()
	best, bestCost := 1, 0.0
	for i := range b.n {
		bestCost += float64(b.jobs[i].perms) * costs[1]
	}
	for _, nr := range widths[1:] {
		if nr > width(b.n) {
			break
		}
		if c := b.simulate(nr, costs); c < bestCost {
			best, bestCost = nr, c
		}
	}
	slot.Store(sig<<8 | uint64(best))
	return best
}

// shapeCache remembers the lane count cheapest chose per batch shape: an
// operation runs the same few shapes again and again, and simulating the
// schedules costs about as much as a permutation per shape. An entry
// holds the shape's 56-bit signature and the lane count; a collision
// costs only a worse choice. resetLaneCosts clears it.
var shapeCache [64]atomic.Uint64

// shape returns a 56-bit signature of b's sponges: their permutation
// counts and dependencies, what the schedule depends on.
func (b *Batch) shape() uint64 {
	h := uint64(14695981039346656037)
	for i := range b.n {
		j := &b.jobs[i]
		h = (h ^ uint64(j.perms)<<8 ^ uint64(uint8(j.after))) * 1099511628211
	}
	return (h ^ uint64(b.n)) >> 8
}

// next returns the ready pending sponge with the longest chain, or -1.
func (b *Batch) next(cursor *int) int {
	for *cursor < b.n && b.jobs[b.order[*cursor]].state != pending {
		*cursor++
	}
	for k := *cursor; k < b.n; k++ {
		i := int(b.order[k])
		j := &b.jobs[i]
		if j.state == pending && (j.after < 0 || b.jobs[j.after].state == finished) {
			return i
		}
	}
	return -1
}

// nextIn is next on the states of a simulation.
func (b *Batch) nextIn(state *[MaxJobs]uint8, cursor *int) int {
	for *cursor < b.n && state[b.order[*cursor]] != pending {
		*cursor++
	}
	for k := *cursor; k < b.n; k++ {
		i := int(b.order[k])
		if a := b.jobs[i].after; state[i] == pending && (a < 0 || state[a] == finished) {
			return i
		}
	}
	return -1
}

// compact moves the busy lanes of the first w into the first w/2 (their
// states too when move is set).
func (b *Batch) compact(w int, move bool) {
	dst := 0
	for l := range w {
		if b.lane[l] < 0 {
			continue
		}
		if dst != l {
			b.lane[dst], b.lane[l] = b.lane[l], -1
			if move {
				b.st[dst] = b.st[l]
			}
		}
		dst++
	}
}

// prioritize sets each sponge's chain (its permutations plus the longest
// chain of the sponges waiting for it) and b.order.
func (b *Batch) prioritize() {
	for i := b.n - 1; i >= 0; i-- {
		j := &b.jobs[i]
		j.chain = j.perms
		for k := i + 1; b.deps && k < b.n; k++ {
			if d := &b.jobs[k]; int(d.after) == i {
				j.chain = max(j.chain, j.perms+d.chain)
			}
		}
	}
	for i := range b.n {
		k := i
		for ; k > 0 && b.jobs[b.order[k-1]].chain < b.jobs[i].chain; k-- {
			b.order[k] = b.order[k-1]
		}
		b.order[k] = int8(i)
	}
}

// absorbNext XORs the block the next permutation absorbs, if any, into a.
func (j *job) absorbNext(a *[25]uint64) {
	t, rate := int(j.done), int(j.rate)
	if t >= int(j.absorb) {
		return
	}
	start := t * rate
	n := rate
	if t == int(j.absorb)-1 {
		n = j.inLen - start
	}
	p, ok := j.piece(start, n)
	if !ok {
		var block [maxRate]byte
		j.gather(block[:n], start)
		p = block[:n]
	}
	if n < rate {
		xorPadded(a, p, rate, j.ds)
		return
	}
	xorBlock(a, p)
}

// squeezeNext extracts the output block of a fixed-output sponge that the
// permutation just made (done counts it) and marks the sponge complete
// after its last; an absorption's state goes back to its hash.
func (j *job) squeezeNext(a *[25]uint64) {
	if j.st != nil {
		*j.st, j.state = *a, finished
		return
	}
	off := int(j.done-j.absorb) * int(j.rate)
	if off < len(j.out) {
		extract(j.out[off:min(len(j.out), off+int(j.rate))], a, 0)
	}
	if j.done == j.perms {
		j.state = finished
	}
}

// piece returns input bytes start..start+n if one piece holds them all.
func (j *job) piece(start, n int) ([]byte, bool) {
	for _, p := range j.in {
		if start < len(p) || n == 0 && start == len(p) {
			if start+n <= len(p) {
				return p[start : start+n], true
			}
			return nil, false
		}
		start -= len(p)
	}
	return nil, n == 0
}

// gather copies input bytes start..start+len(dst) into dst.
func (j *job) gather(dst []byte, start int) {
	for _, p := range j.in {
		if len(dst) == 0 {
			return
		}
		if start >= len(p) {
			start -= len(p)
			continue
		}
		k := copy(dst, p[start:])
		dst, start = dst[k:], 0
	}
}

// runGeneric computes the fixed-output sponges one after another, in
// order, with the single-stream sponge, and reports whether that was all
// (no streams).
func (b *Batch) runGeneric() bool {
	all := true
	for i := range b.n {
		j := &b.jobs[i]
		if j.stream {
			all = false
			continue
		}
		if j.st != nil {
			absorbBlocks(j.st, j.in[0], int(j.rate))
			j.state = finished
			continue
		}
		s := sponge{rate: int(j.rate), dsbyte: j.ds}
		for _, p := range j.in {
			s.write(p)
		}
		s.read(j.out)
		j.state = finished
	}
	return all
}

// batchWays returns the lane count of a Batch of n sponges: the "ways"
// shake128.many's plan gives for n streams, and auto = true where that
// plan is no measured or forced choice (a feature-level default or the
// generic code), for the Batch to choose by its cost model.
func batchWays(n int) (nr int, auto bool) {
	c := shake128Many.slot.ClassFor(n)
	return c.Fn, c.Reason == dispatch.ReasonDefault || c.Reason == dispatch.ReasonGeneric
}

// laneCosts[w] is the cost model of a permutation call of width w (1, 2,
// 4, 8) relative to one single-state permutation, from the tier of the
// variants dispatch selected for keccak.x2, x4 and x8 (see
// newLaneCosts); nil until the first Batch needs it.
var laneCosts atomic.Pointer[[9]float64]

// currentLaneCosts returns laneCosts, computing it the first time.
func currentLaneCosts() *[9]float64 {
	if c := laneCosts.Load(); c != nil {
		return c
	}
	c := newLaneCosts()
	laneCosts.CompareAndSwap(nil, c)
	return laneCosts.Load()
}

// resetLaneCosts makes the next Batch compute laneCosts again (the lab
// registered other permutations) and clears shapeCache.
func resetLaneCosts() {
	laneCosts.Store(nil)
	for i := range shapeCache {
		shapeCache[i].Store(0)
	}
}

// Relative costs of a w-state permutation call by the tier of its
// variant, as measured by the keccak sweeps: AVX-512 (Zen 4: x1 247, x2
// 257, x4 262, x8 477 ns; Emerald Rapids: 296, 310, 316, 496 ns), AVX2
// (Zen 3: x1 321, x2 430, x4 436, x8 832 ns), and w single permutations
// where the width runs generic code.
var tierCosts = map[int][9]float64{
	512: {2: 1.04, 4: 1.06, 8: 1.9},
	256: {2: 1.34, 4: 1.36, 8: 2.6},
}

// newLaneCosts returns the lane costs of the dispatched keccak
// permutations.
func newLaneCosts() *[9]float64 {
	var c [9]float64
	c[1] = 1
	for _, w := range []int{2, 4, 8} {
		_, features := keccakSelected(w)
		tc, ok := tierCosts[variant.TierWidth(features)]
		switch {
		case ok && tc[w] > 0:
			c[w] = tc[w]
		case variant.TierWidth(features) > 0:
			c[w] = tierCosts[256][w]
		default:
			c[w] = float64(w)
		}
	}
	return &c
}
