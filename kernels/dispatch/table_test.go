package dispatch

import (
	"slices"
	"testing"
)

// TestTableChoices checks that Choices yields every entry, then every
// default, in table order, and stops when the loop breaks.
func TestTableChoices(t *testing.T) {
	tab := Table{
		Entries: []Entry{
			{Kernel: "a", Choices: []Choice{{Variant: "a1"}}},
			{Kernel: "b", Choices: []Choice{{Variant: "b1"}, {MaxSize: 64, Variant: "b2"}}},
		},
		Defaults: []Default{{Kernel: "c", Choices: []Choice{{Variant: "c1"}}}},
	}
	var got []string
	for kernel, cs := range tab.Choices() {
		for _, c := range cs {
			got = append(got, kernel+"/"+c.Variant)
		}
	}
	if want := []string{"a/a1", "b/b1", "b/b2", "c/c1"}; !slices.Equal(got, want) {
		t.Errorf("Choices yielded %q, want %q", got, want)
	}
	// Breaking early must stop the iterator (else the range panics).
	for range tab.Choices() {
		break
	}
	for range (Table{}).Choices() {
		t.Error("Choices of an empty table yielded")
	}
}
