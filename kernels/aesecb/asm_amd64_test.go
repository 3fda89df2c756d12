//go:build !purego

package aesecb

import (
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/asmtest"
)

// addAsmKeyExpanders adds the AESKEYGENASSIST expansion where the host has
// AES-NI.
func addAsmKeyExpanders(m map[string]func([]byte, *[240]byte, *[240]byte)) {
	if cpu.Has("aes") {
		m["aeskeygenassist"] = expandKeyAESNI
	}
}

// TestGeneratedMetadata checks each registered variant against the
// generated assembly: its function exists with the loop label, and Symbol
// is the name the runtime reports for the function.
func TestGeneratedMetadata(t *testing.T) {
	files := map[string]map[string]string{} // path -> symbol -> "Requires" line + body
	for _, k := range kernels {
		for _, im := range labImpls(k.name) {
			path := asmtest.File(im.Symbol, "aesecb_amd64.s")
			if files[path] == nil {
				files[path] = readFuncs(t, path)
			}
			sym := asmtest.LocalName(im.Symbol)
			body, ok := files[path][sym]
			if !ok {
				t.Errorf("%s %s: no TEXT ·%s in %s", k.name, im.Name, sym, path)
				continue
			}
			if !strings.Contains(body, "\n"+im.LoopLabel+":\n") {
				t.Errorf("%s %s: loop label %q not in %s", k.name, im.Name, im.LoopLabel, sym)
			}
			v := variant.Lookup(k.name, im.Name)
			if got := runtime.FuncForPC(reflect.ValueOf(im.Fn).Pointer()).Name(); v == nil || got != v.Symbol {
				t.Errorf("%s %s: runtime name %q, registered Symbol %v", k.name, im.Name, got, v)
			}
		}
	}
}

// readFuncs returns the functions of the generated assembly file at path,
// by name: each one's "Requires" line and body.
func readFuncs(t *testing.T, path string) map[string]string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]string{}
	for _, chunk := range strings.Split(string(src), "\n// func ")[1:] {
		_, rest, _ := strings.Cut(chunk, "TEXT ·")
		name, _, _ := strings.Cut(rest, "(SB)")
		funcs[name] = chunk
	}
	return funcs
}

// TestGeneratedFeatures checks every variant's declared CPU features
// against avo's requirements for its function in the generated assembly.
func TestGeneratedFeatures(t *testing.T) {
	asmtest.CheckFeatures(t, "aesecb_amd64.s", asmtest.Family("aes"), asmtest.OwnSymbol)
}

// TestProductionLinksTable checks that the production tables
// (zprod_amd64.go) hold every variant the compiled dispatch table names.
func TestProductionLinksTable(t *testing.T) {
	prod := map[string][]string{}
	for _, k := range kernels {
		prod[k.name] = []string{}
		for _, im := range prodImpls(k.name) {
			prod[k.name] = append(prod[k.name], im.Name)
		}
	}
	asmtest.CheckProduction(t, prod)
}
