package resultfile

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzReader feeds arbitrary bytes to the reader: it must not panic, and
// whatever it returns must hold: results pass CheckResult and the
// identity checks, no value carries a control or formatting character,
// records come in line order, warnings name r.txt:LINE and are capped.
// CI runs it briefly (.ci/run); reports.FuzzRead covers what the
// commands make of the results.
func FuzzReader(f *testing.F) {
	f.Add([]byte(header + "BenchmarkPoly1305/isa=generic/size=64 100 5 ns/op 13 tsc-cycles/op\n"))
	f.Add([]byte(CommentPrefix + "segment 00000000000000aa 1\n" + header + "BenchmarkPoly1305/isa=generic/size=64 100 NaN ns/op\n" + CommentPrefix + "done poly1305/size=64\n"))
	f.Add([]byte("\ufeff" + header + "uarch: Rocket Lake\u202e }; var x = 1 //\u2066\nBenchmarkX/size=-1 -1 1e-320 ns/op\n"))
	f.Add([]byte("dispatch-key: Evil\"Vendor`/0x19/0x11\nBenchmarkX 1 5 ns/op\n\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data), "r.txt")
		last := 0
		for r.Scan() {
			if r.Line() < last {
				t.Errorf("line %d after line %d", r.Line(), last)
			}
			last = r.Line()
			if m := r.Mark(); m != nil {
				checkPrintable(t, strings.Join(m.Fields, " "))
				continue
			}
			checkResult(t, r)
		}
		if w := r.Warnings(); len(w) > MaxWarnings+2 {
			t.Errorf("%d warnings, want at most %d and a summary", len(w), MaxWarnings)
		}
		for _, w := range r.Warnings() {
			if !strings.HasPrefix(w, "r.txt:") {
				t.Errorf("warning %q does not name the file", w)
			}
		}
	})
}

// checkResult checks a result the reader returned.
func checkResult(t *testing.T, r *Reader) {
	res := r.Result()
	if err := CheckResult(res); err != nil {
		t.Errorf("line %d: returned a result CheckResult refuses: %v", r.Line(), err)
	}
	for _, c := range identityChecks {
		if v := res.GetConfig(c.key); v != "" && c.check(v) != nil {
			t.Errorf("line %d: %s %q reached a result", r.Line(), c.key, v)
		}
	}
	for _, c := range res.Config {
		checkPrintable(t, string(c.Value))
	}
	checkPrintable(t, string(res.Name))
}

func checkPrintable(t *testing.T, s string) {
	if r, ok := firstUnprintable([]byte(s)); ok {
		t.Errorf("%U reached a record: %q", r, s)
	}
}
