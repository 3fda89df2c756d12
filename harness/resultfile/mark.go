package resultfile

import (
	"fmt"
	"strconv"
	"strings"
)

// The kinds of harness line ("# tunelab: KIND ARGS"). Group is a group
// key (GroupKey), label a contender's label (its variant name, or
// "name/arm=b" when a variant races itself).
const (
	// "segment RUN-ID N": a writing session of run RUN-ID begins, the
	// first line it writes; N is 1 for a new file and one more for each
	// resume.
	KindSegment = "segment"
	// "round GROUP N": the results after it, of GROUP, were measured in
	// round N of the segment (each contender once, in random order).
	KindRound = "round"
	// "done GROUP": the sweep finished GROUP.
	KindDone = "done"
	// "eliminated GROUP LABEL n=N REASON": the race dropped LABEL after N
	// samples (significantly slower).
	KindEliminated = "eliminated"
	// "excluded GROUP LABEL REASON": LABEL crashed or failed
	// verification; its samples never win.
	KindExcluded = "excluded"
	// "align-placement LABEL TEXT" and "align-excluded LABEL REASON":
	// where tunelab align found an arm's loop, and why it left one out.
	KindAlignPlacement = "align-placement"
	KindAlignExcluded  = "align-excluded"
)

// A Mark is one harness line, parsed: Kind says which, and the fields
// that kind has are set.
type Mark struct {
	Kind   string
	Run    string // segment: the run-id
	N      int    // segment: the segment number; round: the round number
	Group  string // round, done, eliminated, excluded
	Label  string // eliminated, excluded, align-placement, align-excluded
	Reason string // eliminated ("n=N ..."), excluded, align-*: the rest
	// Variant is the variant a variant line describes, Quality what a
	// quality line records.
	Variant *VariantInfo
	Quality *Quality
	// Fields are the line's text after CommentPrefix split on spaces
	// into at most 4 (so a reason keeps its spaces).
	Fields []string
	// Err says what was expected of a malformed line of a known kind:
	// a reader ignores such a line, except a malformed segment line,
	// which leaves the file's segments unknown.
	Err error
}

// parseMark parses the fields of a harness line.
func parseMark(fields []string) *Mark {
	m := &Mark{Kind: fields[0], Fields: fields}
	at := func(i int) string { return fieldAt(fields, i) }
	switch m.Kind {
	case KindSegment:
		m.Run, m.N, m.Err = at(1), number(at(2)), wantFields(fields, 3, 3, "segment <run-id> <n>")
		if m.Err == nil && m.N < 1 {
			m.Err = fmt.Errorf("expected a segment number >= 1, got %q", at(2))
		}
	case KindRound:
		m.Group, m.N, m.Err = at(1), number(at(2)), wantFields(fields, 3, 3, "round <group> <n>")
		if m.Err == nil && m.N < 1 {
			m.Err = fmt.Errorf("expected a round number >= 1, got %q", at(2))
		}
	case KindDone:
		m.Group, m.Err = at(1), wantFields(fields, 2, 2, "done <group>")
	case KindEliminated, KindExcluded:
		m.Group, m.Label, m.Reason = at(1), at(2), strings.Join(fields[min(3, len(fields)):], " ")
		m.Err = wantFields(fields, 3, 4, m.Kind+" <group> <label> <reason>")
	case KindQuality:
		m.Quality, m.Err = parseQuality(fields)
		if m.Quality != nil {
			m.Group = m.Quality.Group
		}
	case KindVariant:
		m.Variant, m.Err = parseVariant(fields)
		if m.Variant != nil {
			m.Group, m.Label = m.Variant.Kernel, m.Variant.Label
		}
	case KindAlignPlacement, KindAlignExcluded:
		m.Label, m.Reason = at(1), strings.Join(fields[min(2, len(fields)):], " ")
	}
	return m
}

// fieldAt returns fields[i], "" beyond the end.
func fieldAt(fields []string, i int) string {
	if i < len(fields) {
		return fields[i]
	}
	return ""
}

// number parses a non-negative decimal number, 0 if it is none.
func number(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// wantFields returns an error unless fields has lo to hi entries.
func wantFields(fields []string, lo, hi int, shape string) error {
	if len(fields) < lo || len(fields) > hi {
		return fmt.Errorf("expected %q, got %q", shape, strings.Join(fields, " "))
	}
	return nil
}
