package bounds

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"sync"

	"github.com/mmcloughlin/avo/ir"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/variants/internal/avogen"
)

var statusOut = flag.String("bounds", "", "write the value-bound status of every generated variant of a kernel with a contract (a lab/bounds Go file) to `file`")

// Enabled reports whether the generator was asked for the analysis (the
// -bounds flag).
func Enabled() bool { return *statusOut != "" }

// A VariantResult is the analysis of one variant: of its function, with
// its kernel's contract.
type VariantResult struct {
	Kernel, Name, Symbol string
	Result
	Q int64 // the kernel's modulus, for bounds in units of q
}

var (
	mu       sync.Mutex
	fns      map[string]*ir.Function
	data     Data
	results  []*VariantResult
	byKey    map[[2]string]*VariantResult
	checked  bool
	analyzed sync.Map // symbol+kernel -> Result
)

// Check takes the functions and data of avo's global build context
// (compiled) for the analysis of the variants the generator's tables then
// record (RecordVariant).
func Check() error {
	f, err := avogen.File()
	if err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	fns = map[string]*ir.Function{}
	for _, fn := range f.Functions() {
		fns[fn.Name] = fn
	}
	data = DataOf(f)
	byKey = map[[2]string]*VariantResult{}
	results = nil
	checked = true
	return nil
}

// ParamsOf turns a kernel's contract into the analysis' parameters.
func ParamsOf(k contract.Kernel) []Param {
	var ps []Param
	for _, a := range k.Args {
		if a.Values != nil || a.Sets != nil {
			continue // a scalar or a set of constants: ScalarsOf
		}
		p := Param{Name: a.Name, Elem: a.Elem, Lanes: a.Lanes, Encoding: a.Encoding}
		if a.In != nil {
			p.In = &Interval{a.In.Lo, a.In.Hi}
		}
		if a.Out != nil {
			p.Out = &Interval{a.Out.Lo, a.Out.Hi}
		}
		ps = append(ps, p)
	}
	return ps
}

// ScalarsOf returns the values of a kernel's integer parameters (its
// contract's Args with Values) and the sets of its arrays of constants
// (Args with Sets), which AnalyzeAll runs one by one.
func ScalarsOf(k contract.Kernel) []ScalarValues {
	var ss []ScalarValues
	for _, a := range k.Args {
		switch {
		case a.Values != nil:
			ss = append(ss, ScalarValues{Name: a.Name, Values: a.Values})
		case a.Sets != nil:
			s := ScalarValues{Name: a.Name, Elem: a.Elem}
			for _, set := range a.Sets {
				var lanes []Interval
				for _, b := range set {
					lanes = append(lanes, Interval{b.Lo, b.Hi})
				}
				s.Sets = append(s.Sets, lanes)
			}
			ss = append(ss, s)
		}
	}
	return ss
}

// Analyzable reports whether kernel has a contract, so that its
// variants are analysed.
func Analyzable(kernel string) bool {
	_, ok := contract.Of(kernel)
	return ok
}

// RecordVariants analyses the variants (kernel, name, symbols) of
// kernels with a contract, in parallel, and records the results. It does
// nothing before Check. A variant must run one function.
func RecordVariants(vs []Recorded) error {
	mu.Lock()
	ok := checked
	mu.Unlock()
	if !ok {
		return nil
	}
	var todo []Recorded
	for _, v := range vs {
		if Analyzable(v.Kernel) {
			todo = append(todo, v)
		}
	}
	out := make([]*VariantResult, len(todo))
	errs := make([]error, len(todo))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], errs[i] = analyzeVariant(todo[i])
			}
		}()
	}
	for i := range todo {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	for _, r := range out {
		key := [2]string{r.Kernel, r.Name}
		if _, dup := byKey[key]; dup {
			continue
		}
		byKey[key] = r
		results = append(results, r)
	}
	return nil
}

// A Recorded is a variant as a generator's table lists it.
type Recorded struct {
	Kernel, Name string
	Symbols      []string
}

func analyzeVariant(v Recorded) (*VariantResult, error) {
	k, _ := contract.Of(v.Kernel)
	r := &VariantResult{Kernel: v.Kernel, Name: v.Name, Q: k.Q}
	if v.Kernel == polyKernel && len(v.Symbols) > 0 {
		r.Symbol = v.Symbols[0]
		res, err := analyzePoly(v)
		r.Result = res
		return r, err
	}
	if len(v.Symbols) != 1 {
		r.Result = Result{Status: Unproven, Finding: &Finding{Status: Unproven, Index: -1, Lane: -1,
			What: fmt.Sprintf("the variant runs %d functions; the analysis reads one", len(v.Symbols))}}
		return r, nil
	}
	r.Symbol = v.Symbols[0]
	mu.Lock()
	fn := fns[r.Symbol]
	mu.Unlock()
	if fn == nil {
		return nil, fmt.Errorf("bounds: variant %s %s runs %s, which the generator did not build", v.Kernel, v.Name, r.Symbol)
	}
	key := r.Symbol + "\x00" + v.Kernel
	if res, ok := analyzed.Load(key); ok {
		r.Result = res.(Result)
		return r, nil
	}
	r.Result = AnalyzeAll(fn, data, ParamsOf(k), ScalarsOf(k))
	analyzed.Store(key, r.Result)
	return r, nil
}

// Refused reports whether variant name of kernel overflows: the
// generator's tables leave it out (it is never registered), and Write
// prints why.
func Refused(kernel, name string) bool {
	mu.Lock()
	defer mu.Unlock()
	r := byKey[[2]string{kernel, name}]
	return r != nil && r.Status == Overflow
}

// Results returns the recorded results, sorted by kernel and in the
// tables' order.
func Results() []*VariantResult {
	mu.Lock()
	defer mu.Unlock()
	out := append([]*VariantResult(nil), results...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Kernel < out[j].Kernel })
	return out
}

// Write prints the refused variants, writes the status file (the -bounds
// flag; nothing if unset) and returns an error if the compiled dispatch
// table names a refused variant.
func Write() error {
	mu.Lock()
	ok := checked
	mu.Unlock()
	if !ok {
		return nil
	}
	rs := Results()
	named := map[[2]string]bool{}
	t := dispatch.Compiled()
	for _, e := range t.Entries {
		for _, c := range e.Choices {
			named[[2]string{e.Kernel, c.Variant}] = true
		}
	}
	for _, d := range t.Defaults {
		for _, c := range d.Choices {
			named[[2]string{d.Kernel, c.Variant}] = true
		}
	}
	var errs []error
	for _, r := range rs {
		if r.Status != Overflow {
			continue
		}
		fmt.Fprintf(os.Stderr, "bounds: refusing %s %s (not in the tables): %s\n", r.Kernel, r.Name, r.Finding)
		if named[[2]string{r.Kernel, r.Name}] {
			errs = append(errs, fmt.Errorf("bounds: the compiled dispatch table names %s %s, which overflows: %s", r.Kernel, r.Name, r.Finding))
		}
	}
	if *statusOut != "" {
		if err := writeGo(*statusOut, rs, plants(rs)); err != nil {
			return err
		}
	}
	return errors.Join(errs...)
}

// plants runs the planted defects whose variants this generator built.
func plants(rs []*VariantResult) []PlantResult {
	var out []PlantResult
	for _, p := range Plants {
		for _, r := range rs {
			if r.Kernel != p.Kernel || r.Name != p.Variant || r.Symbol == "" {
				continue
			}
			k, _ := contract.Of(r.Kernel)
			mu.Lock()
			fn := fns[r.Symbol]
			mu.Unlock()
			out = append(out, RunPlant(p, fn, data, ParamsOf(k), ScalarsOf(k)...))
		}
	}
	return out
}
