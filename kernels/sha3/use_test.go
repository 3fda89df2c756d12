package sha3

import (
	"bytes"
	"crypto/sha3"
	"testing"
)

func TestUseWays(t *testing.T) {
	ins := [][]byte{[]byte("a"), []byte("bc"), []byte("def"), {}, []byte("ghij")}
	for _, nr := range []int{0, 1, 2, 4, 8} {
		restore, err := UseWays(nr)
		if err != nil {
			t.Fatalf("UseWays(%d): %v", nr, err)
		}
		if got := shake128Many.slot.For(len(ins)); got != nr {
			t.Errorf("UseWays(%d): SHAKE128Many runs ways=%d", nr, got)
		}
		outs := make([][]byte, len(ins))
		for i := range outs {
			outs[i] = make([]byte, 200)
		}
		SHAKE128Many(outs, ins)
		for i, in := range ins {
			if want := sha3.SumSHAKE128(in, 200); !bytes.Equal(outs[i], want) {
				t.Errorf("ways=%d stream %d differs from crypto/sha3", nr, i)
			}
		}
		restore()
	}
	before := shake128Many.slot.Plan()
	if _, err := UseWays(3); err == nil {
		t.Error("UseWays(3) accepted")
	}
	if &before[0] != &shake128Many.slot.Plan()[0] {
		t.Error("a refused UseWays changed the plan")
	}
}
