// Package tablesrc writes and reads the Go source of the compiled dispatch
// table, kernels/dispatch/ztable.go: FormatTable is what `tunelab export
// --format go` writes, ParseTable its inverse (for merging a table with new
// measurements). It lives with reports, apart from kernels/dispatch, so that production
// binaries, which only read the compiled table, do not link go/format and
// go/parser.
package tablesrc
