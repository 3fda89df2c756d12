package main

import (
	"bytes"
	"strings"
	"text/template"
)

// wrappers are the per-set functions (of kernels/poly1305 for the
// production set, of lab/variants/poly1305 for the lab set) that run a
// variant through the set's switches: the MAC (Sum), its benchmark loop
// (Run) and the blocks of a MAC (Blocks, with a power table from a MAC's
// cache or on the stack). Each set gets its own copy so that a binary
// links the generated code of the sets it calls, and only that; what
// they decide from the variant's shape (which function takes how many
// bytes) is in the methods of internal/poly1305core's Variant, shared by
// both. The lab set's wrappers reach kernels/poly1305 as func values
// (poly1305core.Lab); the power tables they build stay on their own
// stacks, so that only the caller's arguments escape.
// Each doc comment is one line here, wrapped by writeWrappers.
var wrappers = template.Must(template.New("wrappers").Parse(`
// {{.P}}Sum computes the MAC of m under key with variant v of {{.Doc}}: in one call of a one-shot function where v has one for len(m) (see Variant.OneShot in internal/poly1305core), else with {{.P}}Blocks and the shared finish.
func {{.P}}Sum(v *poly1305core.Variant, out *[16]byte, m []byte, key *[32]byte) {
	if id, ok := v.OneShot(len(m)); ok {
		{{.P}}CallSum(id, out, m, key)
		return
	}
	var st poly1305core.State
	st.Init(key)
	full := len(m) &^ 15
	{{.P}}Blocks(v, &st, m[:full], nil)
	st.Finish(out, m[full:])
}

// {{.P}}Run computes the MAC n times with variant v of {{.Doc}}, for an instance's Run.
func {{.P}}Run(v *poly1305core.Variant, n int, out *[16]byte, m []byte, key *[32]byte) {
	for i := 0; i < n; i++ {
		{{.P}}Sum(v, out, m, key)
	}
}

// {{.P}}Blocks adds the full blocks of m to st.H with variant v of {{.Doc}}: its vector function on the first v.VectorBytes(len(m)) bytes, with the power table cached in pc (nil: computed on the stack), and the scalar block function of variant v.ScalarID() on the rest.
func {{.P}}Blocks(v *poly1305core.Variant, st *poly1305core.State, m []byte, pc *poly1305core.PowCache) {
	n := v.VectorBytes(len(m))
	switch {
	case n == 0:
	case pc != nil:
		if pc.Claim(v) {
			{{.P}}FillTable(v.Shape, pc.Tab[:], &st.R)
		}
		{{.P}}CallVector(v, &st.H, &pc.Tab[0], m[:n])
{{- range .Tables}}
	case v.PowWords <= poly1305core.{{.Words}}:
		{{$.P}}Vector{{.Name}}(v, &st.H, &st.R, m[:n])
{{- end}}
	default:
		panic("poly1305: power table larger than MaxPowWords")
	}
	if n < len(m) {
		{{.P}}CallScalar(v.ScalarID(), &st.H, &st.R, m[n:], 1)
	}
}
{{range .Tables}}
// {{$.P}}Vector{{.Name}} runs vector variant v on m with its power table computed on the stack in {{.Words}} words: the smallest buffer that holds the table, and out of {{$.P}}Blocks, so that short inputs do not pay for zeroing a larger one.
//
//go:noinline
func {{$.P}}Vector{{.Name}}(v *poly1305core.Variant, h *[3]uint64, r *[2]uint64, m []byte) {
	var tab [poly1305core.{{.Words}}]uint64
	{{$.P}}FillTable(v.Shape, tab[:], r)
	{{$.P}}CallVector(v, h, &tab[0], m)
}
{{end}}`))

// stackTables are the stack buffers of power tables, smallest first, as
// the constants of internal/poly1305core that size them.
var stackTables = []struct{ Name, Words string }{
	{"Tiny", "TinyPowWords"}, {"Small", "SmallPowWords"}, {"Medium", "MediumPowWords"}, {"Full", "MaxPowWords"},
}

// writeWrappers writes the wrappers of set s.
func writeWrappers(b *bytes.Buffer, s set) {
	var t bytes.Buffer
	err := wrappers.Execute(&t, struct {
		P, Doc string
		Tables any
	}{s.prefix, s.doc, stackTables})
	if err != nil {
		panic(err) // a template error is a bug in the template
	}
	for _, line := range strings.SplitAfter(t.String(), "\n") {
		if text, ok := strings.CutPrefix(line, "// "); ok {
			line = comment("%s", text)
		}
		b.WriteString(line)
	}
}
