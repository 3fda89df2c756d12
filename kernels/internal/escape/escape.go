// Package escape hides pointers from the compiler's escape analysis, as
// the runtime's noescape does.
//
// The kernels are called through function values (the implementation a
// kernelset.Slot or the keccak dispatch chose), so the compiler cannot see
// that they do not retain their arguments and moves every array passed to
// them to the heap: a polynomial or a hash state on the caller's stack
// would allocate on every call. The kernels do not retain them (they work
// in place and return), so their callers pass the pointers through Hide
// and HideBytes, and the arrays stay where they are. Only pass the result
// to functions that do not retain it.
package escape

import "unsafe"

// Hide returns p, hidden from escape analysis: the pointer is read and
// rebuilt through a uintptr with no call in between, so the object cannot
// move meanwhile.
func Hide[T any](p *T) *T {
	bits := *(*uintptr)(unsafe.Pointer(&p))
	return *(**T)(unsafe.Pointer(&bits))
}

// HideBytes returns b, its array hidden from escape analysis as with Hide
// (the capacity becomes the length; an empty b becomes nil).
func HideBytes(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice(Hide(unsafe.SliceData(b)), len(b))
}
