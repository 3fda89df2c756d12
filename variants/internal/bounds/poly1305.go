package bounds

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tunelab/tunelab/internal/contract"
)

// polyKernel is the dispatch name of Poly1305, whose variants the word
// analysis (AnalyzeWords) proves, function by function.
const polyKernel = "poly1305"

// PolyContract returns the contract of a Poly1305 function by its symbol
// (variants/poly1305's names: blocks_scalar_*, sum_scalar_*, blocks_<isa>_*)
// and the variant's knobs (radix, lanes, blocks, pow, tail).
func PolyContract(symbol, variant string) (contract.WordFunc, error) {
	switch {
	case strings.HasPrefix(symbol, "blocks_scalar_"):
		return contract.PolyBlocks(), nil
	case strings.HasPrefix(symbol, "sum_scalar_"):
		return contract.PolySum(), nil
	case !strings.HasPrefix(symbol, "blocks_"):
		return contract.WordFunc{}, fmt.Errorf("bounds: %s is no Poly1305 function", symbol)
	}
	knobs := map[string]string{}
	for _, kv := range strings.Split(variant, "/") {
		k, v, _ := strings.Cut(kv, "=")
		knobs[k] = v
	}
	radix, err1 := strconv.Atoi(knobs["radix"])
	lanes, err2 := strconv.Atoi(knobs["lanes"])
	blocks, err3 := strconv.Atoi(knobs["blocks"])
	if err1 != nil || err2 != nil || err3 != nil || lanes == 0 || blocks%lanes != 0 {
		return contract.WordFunc{}, fmt.Errorf("bounds: variant %s: no radix, lanes and blocks", variant)
	}
	return contract.PolyVector(radix, lanes, blocks/lanes, knobs["pow"] == "reg", knobs["tail"] == "vector"), nil
}

// analyzePoly analyses every function a Poly1305 variant runs with its
// contract: proven if all are, with the bound of the first's bounded
// output words (h[2] of its block function); else the first finding,
// naming its function.
func analyzePoly(v Recorded) (Result, error) {
	var first *Result
	for _, sym := range v.Symbols {
		c, err := PolyContract(sym, v.Name)
		if err != nil {
			return Result{}, err
		}
		mu.Lock()
		fn := fns[sym]
		mu.Unlock()
		if fn == nil {
			return Result{}, fmt.Errorf("bounds: variant %s %s runs %s, which the generator did not build", v.Kernel, v.Name, sym)
		}
		key := sym + "\x00" + c.Doc
		var r Result
		if res, ok := analyzed.Load(key); ok {
			r = res.(Result)
		} else {
			r = AnalyzeWords(fn, data, c)
			analyzed.Store(key, r)
		}
		if r.Status != Proven {
			f := *r.Finding
			f.What = sym + ": " + f.What
			r.Finding = &f
			return r, nil
		}
		if first == nil {
			first = &r
		}
	}
	return *first, nil
}
