package mlkem

import (
	"fmt"

	"github.com/tunelab/tunelab/kernels/mlkem/internal/derand"
)

// init gives kernels/mlkem/mlkemtest derandomized encapsulation.
func init() {
	derand.Encapsulate512 = encapsulator(&params512)
	derand.Encapsulate768 = encapsulator(&params768)
	derand.Encapsulate1024 = encapsulator(&params1024)
}

// encapsulator returns the derand.Encapsulator of the parameter set p.
func encapsulator(p *params) derand.Encapsulator {
	return func(ek, m []byte) ([]byte, []byte, error) {
		if len(m) != msgSize {
			return nil, nil, fmt.Errorf("mlkem: %s encapsulation randomness is %d bytes, want %d", p.name, len(m), msgSize)
		}
		key, err := newEncapsulationKey(p, ek)
		if err != nil {
			return nil, nil, err
		}
		out := make([]byte, SharedKeySize+p.ctSize())
		key.encapsulate(out, (*[msgSize]byte)(m))
		return out[:SharedKeySize:SharedKeySize], out[SharedKeySize:], nil
	}
}
