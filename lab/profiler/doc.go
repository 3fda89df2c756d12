// Package profiler records pprof profiles of one kernel variant running in
// a loop on a pinned thread, with samples attributed to the generated
// assembly's .s source lines.
//
// Samples come from perf_event_open in sampling mode (package
// perfcounters): a hardware event such as cycles where the host has a PMU,
// else the software cpu-clock event through the same ring-buffer path, and
// runtime/pprof only as a last resort. The source used is recorded in the
// profile's comments. Locations carry lines resolved with
// runtime.FuncForPC(pc).FileLine(pc), which maps every PC of an assembly
// function to its .s file and line, so `go tool pprof -list` shows hot
// instructions on the generated source even though Go's disassembler cannot
// decode VEX/EVEX instructions.
package profiler
