package famgen

import "testing"

func TestCommand(t *testing.T) {
	for _, c := range []struct {
		f    Family
		want string
	}{
		{Family{Command: "cbd", PkgPath: "github.com/tunelab/tunelab/kernels/internal/polysample"},
			"go run ../../../variants/cbd -out cbd_amd64.s -pkg polysample"},
		{Family{Command: "round", PkgPath: "github.com/tunelab/tunelab/kernels/mldsa"},
			"go run ../../variants/round -out cbd_amd64.s -pkg polysample"},
	} {
		if got := command(c.f, []string{"-out", "cbd_amd64.s", "-pkg", "polysample"}); got != c.want {
			t.Errorf("command(%s) = %q, want %q", c.f.PkgPath, got, c.want)
		}
	}
}
