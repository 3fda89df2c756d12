package all_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// labPackages are the import paths (under the module) no production
// program may link: the lab's compositions, inputs, references,
// harness, reports and the generators' assembler.
var labPackages = regexp.MustCompile(`^github\.com/tunelab/tunelab/(lab|harness|reports|variants|cmd)(/|$)|^github\.com/mmcloughlin/avo(/|$)`)

// TestProductionLinksNoLab checks that the public family packages,
// built without test or lab tags, depend on no lab package.
func TestProductionLinksNoLab(t *testing.T) {
	const mod = "github.com/tunelab/tunelab/kernels/"
	args := []string{"-deps"}
	for _, f := range publicFamilies(t) {
		args = append(args, mod+f)
	}
	for _, p := range goList(t, args...) {
		if labPackages.MatchString(p) || strings.Contains(p, "/compose") || strings.Contains(p, "/opinputs") {
			t.Errorf("the public families depend on %s", p)
		}
	}
}

// maxNTTProgramFunctions bounds the generated functions a program that
// calls only mldsa.NTT links (issue 41: at most 48).
const maxNTTProgramFunctions = 48

// TestNTTProgramLinks builds testdata/nttprog, which calls only
// mldsa.NTT, and counts the generated assembly functions it links: those
// whose TEXT symbol a kernels/ .s file defines.
func TestNTTProgramLinks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	bin := filepath.Join(t.TempDir(), "nttprog")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/nttprog").CombinedOutput(); err != nil {
		t.Skipf("go build: %v\n%s", err, out)
	}
	generated := generatedFunctions(t)
	out, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Skipf("go tool nm: %v", err)
	}
	var linked []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[1] == "T" && generated[f[2]] {
			linked = append(linked, f[2])
		}
	}
	t.Logf("a program calling only mldsa.NTT links %d generated functions", len(linked))
	if len(linked) > maxNTTProgramFunctions {
		t.Errorf("a program calling only mldsa.NTT links %d generated functions, want at most %d:\n%s",
			len(linked), maxNTTProgramFunctions, strings.Join(linked, "\n"))
	}
	if len(generated) == 0 {
		t.Error("found no generated function in kernels/")
	}
}

// textSymbol matches a TEXT directive of a Go assembly file.
var textSymbol = regexp.MustCompile(`^TEXT ·([A-Za-z0-9_]+)\(SB\)`)

// generatedFunctions returns the linker names of the functions the .s
// files under kernels/ define.
func generatedFunctions(t *testing.T) map[string]bool {
	t.Helper()
	funcs := map[string]bool{}
	err := filepath.WalkDir("../../kernels", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".s") {
			return err
		}
		pkg := "github.com/tunelab/tunelab/" + filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, "../../")))
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if m := textSymbol.FindStringSubmatch(sc.Text()); m != nil {
				funcs[pkg+"."+m[1]] = true
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return funcs
}
