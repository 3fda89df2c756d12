package align

import (
	"slices"
	"strings"
	"testing"
)

func TestParseOffsets(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
	}{
		{"0-63/4", []int{0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60}},
		{"7", []int{7}},
		{"0-3", []int{0, 1, 2, 3}},
		{"60-63/8", []int{60}},
		{"8,0,4-12/4, 63", []int{0, 4, 8, 12, 63}},
		{"5-5/3", []int{5}},
	} {
		got, err := ParseOffsets(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseOffsets(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

func TestParseOffsetsErrors(t *testing.T) {
	for _, c := range []struct{ in, wantIn string }{
		{"", "empty"},
		{"64", "0..63"},
		{"-1", "0..63"},
		{"a-3", "0..63"},
		{"0-63/0", "step"},
		{"0-63/x", "step"},
		{"4/2", "needs a range"},
		{"8-4", "below its start"},
		{"0,,4", "0..63"},
	} {
		got, err := ParseOffsets(c.in)
		if err == nil {
			t.Errorf("ParseOffsets(%q) = %v, want an error", c.in, got)
			continue
		}
		if !strings.Contains(err.Error(), c.wantIn) || !strings.Contains(err.Error(), "parsing offsets") {
			t.Errorf("ParseOffsets(%q) error %q does not contain %q", c.in, err, c.wantIn)
		}
	}
}

func TestFormatOffsetsRoundTrip(t *testing.T) {
	for _, in := range []string{"0-60/4", "0-3", "0,8,12", "5", "0,4"} {
		offs, err := ParseOffsets(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatOffsets(offs); got != in {
			t.Errorf("FormatOffsets(ParseOffsets(%q)) = %q", in, got)
		}
	}
}
