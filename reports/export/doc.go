// Package export turns the decisions of package reports into tunelab's
// dispatch table (kernels/dispatch): per CPU model (dispatch key and
// feature set) and kernel the winners by size class (Entry, Choice), per
// feature level a default for CPUs the table does not name (Default:
// the candidate with the best geometric mean over the models that reach
// the level), the evidence behind each entry, and notes (busy or short
// groups, an unknown host).
//
// FromReport builds a Table from an analysed report, ExportAnalyzed and
// ExportFiles check it; a Table is written as JSON or as the Go source of
// kernels/dispatch/ztable.go (GoSource), read back (ReadTable), diffed
// against an older one (Diff), merged over a base (Merge, AddLegacyBase)
// and validated (Validate). DecideByOperation re-decides composition
// knobs by whole operations.
//
// export decides nothing per group: winners, size classes and what is
// simpler come from reports. It imports reports; reports does not import
// it.
package export
