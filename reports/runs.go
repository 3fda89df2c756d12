package reports

import (
	"fmt"
	"strconv"

	"golang.org/x/perf/benchfmt"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A runState is what the reader knows of one run-id across every file:
// the identity its first result fixed, the benchmark each kernel config
// was written for, and the segments read.
type runState struct {
	identity resultfile.RunIdentity
	bench    map[string]configAt // kernel config -> benchmark base name
	model    *Model
	id       int // index in reader.runNames
}

// configAt is a config value and the file:line that set it.
type configAt struct{ value, at string }

// runState returns the state of run, creating it.
func (rd *reader) runState(run string) *runState {
	st := rd.runs[run]
	if st == nil {
		st = &runState{identity: resultfile.RunIdentity{}, bench: map[string]configAt{}, id: len(rd.runNames)}
		rd.runs[run] = st
		rd.runNames = append(rd.runNames, run)
	}
	return st
}

// checkIdentity refuses a result that changes its run's identity: the
// host, features, tunelab version or decision rule (resultfile.IdentityKeys).
func (st *runState) checkIdentity(res *benchfmt.Result, at string) error {
	if err := st.identity.Check(res, at); err != nil {
		return fmt.Errorf("%w; refusing the file", err)
	}
	return nil
}

// checkBench refuses a kernel config that does not belong to the result's
// benchmark: the registered kernel's benchmark name, and within a run the
// same benchmark for the same kernel throughout.
func (st *runState) checkBench(kernel, bench, at string) error {
	if kernel == "" {
		return nil
	}
	if k := variant.LookupKernel(kernel); k != nil && k.Bench != bench {
		return fmt.Errorf("%s: kernel config %s, but the result is Benchmark%s (%s is Benchmark%s): refusing the file", at, kernel, bench, kernel, k.Bench)
	}
	if first, ok := st.bench[kernel]; !ok {
		st.bench[kernel] = configAt{bench, at}
	} else if first.value != bench {
		return fmt.Errorf("%s: kernel config %s on Benchmark%s, but Benchmark%s at %s in the same run: refusing the file", at, kernel, bench, first.value, first.at)
	}
	return nil
}

// A segmenter assigns each result of a file to its segment: the harness's
// "segment <run-id> <n>" line before it, else (files without segment
// lines) the stretch of consecutive results of one run-id.
type segmenter struct {
	input      int
	marker     string // current marker key "run-id#n", "" if none
	markerRun  string
	lastRun    string
	runSegment int
	commentRun string // run the next comment lines belong to
	key        string // the current key; "" when it must be computed again
}

// markerKey returns the segment key "run-id#n" of a segment line.
func markerKey(m *resultfile.Mark) string { return m.Run + "#" + strconv.Itoa(m.N) }

// segment returns the owner key of a result of run: the marker's when the
// result belongs to the current marker, else input#stretch.
func (s *segmenter) segment(run string) string {
	if run != s.lastRun {
		s.lastRun, s.runSegment, s.key = run, s.runSegment+1, ""
	}
	s.commentRun = run
	if s.key == "" {
		s.key = "m:" + s.marker
		if s.marker == "" || run != s.markerRun {
			s.key = fmt.Sprintf("f:%d#%d", s.input, s.runSegment)
		}
	}
	return s.key
}

// setMarker starts the segment of a segment line of run (key "run#n").
func (s *segmenter) setMarker(key, run string) {
	s.marker, s.markerRun, s.commentRun, s.key = key, run, run, ""
}
