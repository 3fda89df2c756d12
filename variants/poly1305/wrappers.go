package main

import (
	"bytes"
	"strings"
	"text/template"
)

// wrappers are the per-set functions of kernels/poly1305 that run a
// variant through the set's switches: the MAC (Sum), its benchmark loop
// (Run) and the blocks of a MAC (Blocks, with a power table from a MAC's
// cache or on the stack). Each set gets its own copy so that a binary
// links the generated code of the sets it calls, and only that; what
// they decide from the variant's shape (which function takes how many
// bytes) is in kernels/poly1305's asmVariant methods, shared by both.
// Each doc comment is one line here, wrapped by writeWrappers.
var wrappers = template.Must(template.New("wrappers").Parse(`
// {{.P}}Sum computes the MAC of m under key with variant v of {{.Doc}}: in one call of a one-shot function where v has one for len(m) (see asmVariant.oneShot), else with {{.P}}Blocks and the shared finish.
func {{.P}}Sum(v *asmVariant, out *[16]byte, m []byte, key *[32]byte) {
	if id, ok := v.oneShot(len(m)); ok {
		{{.P}}CallSum(id, out, m, key)
		return
	}
	var st state
	st.init(key)
	full := len(m) &^ 15
	{{.P}}Blocks(v, &st, m[:full], nil)
	st.finish(out, m[full:])
}

// {{.P}}Run computes the MAC n times with variant v of {{.Doc}}, for an instance's Run.
func {{.P}}Run(v *asmVariant, n int, out *[16]byte, m []byte, key *[32]byte) {
	for i := 0; i < n; i++ {
		{{.P}}Sum(v, out, m, key)
	}
}

// {{.P}}Blocks adds the full blocks of m to st.h with variant v of {{.Doc}}: its vector function on the first v.vectorBytes(len(m)) bytes, with the power table cached in pc (nil: computed on the stack), and the scalar block function of variant v.scalarID() on the rest.
func {{.P}}Blocks(v *asmVariant, st *state, m []byte, pc *powCache) {
	n := v.vectorBytes(len(m))
	switch {
	case n == 0:
	case pc != nil:
		if pc.claim(v) {
			{{.P}}FillTable(v.shape, pc.tab[:], &st.r)
		}
		{{.P}}CallVector(v, &st.h, &pc.tab[0], m[:n])
{{- range .Tables}}
	case v.powWords <= {{.Words}}:
		{{$.P}}Vector{{.Name}}(v, &st.h, &st.r, m[:n])
{{- end}}
	default:
		panic("poly1305: power table larger than maxPowWords")
	}
	if n < len(m) {
		{{.P}}CallScalar(v.scalarID(), &st.h, &st.r, m[n:], 1)
	}
}
{{range .Tables}}
// {{$.P}}Vector{{.Name}} runs vector variant v on m with its power table computed on the stack in {{.Words}} words: the smallest buffer that holds the table, and out of {{$.P}}Blocks, so that short inputs do not pay for zeroing a larger one.
//
//go:noinline
func {{$.P}}Vector{{.Name}}(v *asmVariant, h *[3]uint64, r *[2]uint64, m []byte) {
	var tab [{{.Words}}]uint64
	{{$.P}}FillTable(v.shape, tab[:], r)
	{{$.P}}CallVector(v, h, &tab[0], m)
}
{{end}}`))

// stackTables are the stack buffers of power tables, smallest first, as
// the constants of kernels/poly1305 that size them.
var stackTables = []struct{ Name, Words string }{
	{"Tiny", "tinyPowWords"}, {"Small", "smallPowWords"}, {"Medium", "mediumPowWords"}, {"Full", "maxPowWords"},
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
