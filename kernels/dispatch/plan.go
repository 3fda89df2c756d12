package dispatch

// A Candidate is a variant a kernel package can dispatch to: its name (as in
// kernels/variant) and the CPU features it requires.
type Candidate struct {
	Name     string
	Features []string
	// Preferred marks the generator's declared default of a kernel the
	// compiled table does not name: what the plan runs where no entry or
	// default covers its sizes (the runnable preferred candidate with
	// the most features), instead of the generic code.
	Preferred bool
}

// A Choice selects Variant for inputs of at most MaxSize bytes; MaxSize 0
// means no upper bound. A plan is a list of choices in increasing MaxSize
// order whose last entry has MaxSize 0.
type Choice struct {
	MaxSize int
	Variant string
	// Reason says where the choice came from: "table", "default",
	// "override", "generic".
	Reason string
}

// ForSize returns the index of the choice in plan that covers size n.
func ForSize(plan []Choice, n int) int {
	for i, c := range plan {
		if c.MaxSize == 0 || n <= c.MaxSize {
			return i
		}
	}
	return len(plan) - 1
}
