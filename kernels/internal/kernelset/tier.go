package kernelset

// UseAll makes each slot use the variant of the same index in names (as
// Slot.Use) and returns a function that restores them all; on an error it
// restores those it changed.
func UseAll(slots []Tiered, names []string) (restore func(), err error) {
	var undo []func()
	restore = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	for i, s := range slots {
		r, err := s.Use(names[i])
		if err != nil {
			restore()
			return nil, err
		}
		undo = append(undo, r)
	}
	return restore, nil
}

// A Tiered is a Slot of any function type, as UseAll takes them.
type Tiered interface {
	Kernel() string
	Use(name string) (func(), error)
}
