package dispatch

import "testing"

func TestFallbackShowsWhatRuns(t *testing.T) {
	const kernel = "test.fallback"
	Plan(kernel, []Candidate{{Name: genericName}, {Name: "isa=x"}})
	Fallback(kernel, "isa=x", "follows another kernel", false)
	for _, kp := range Plans() {
		if kp.Kernel != kernel {
			continue
		}
		if c := kp.Choices[0]; c.Variant != "isa=x" || c.Reason != ReasonPackage || kp.Details[0] != "package default: follows another kernel" {
			t.Errorf("plan after Fallback: %+v %q, want isa=x by the package", c, kp.Details)
		}
		return
	}
	t.Fatal("no recorded plan")
}
