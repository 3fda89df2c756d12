package dispatch

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
)

func TestParseOverrides(t *testing.T) {
	got, w := parseOverrides("keccak.x4=isa=avx2/rot=shift/unroll=2 , poly1305=generic,junk,=x,k=,poly1305=isa=avx2")
	want := map[string]string{"keccak.x4": "isa=avx2/rot=shift/unroll=2", "poly1305": "isa=avx2"}
	if fmt.Sprint(got) != fmt.Sprint(want) || len(w) != 3 {
		t.Errorf("parseOverrides = %v, %q; want %v and 3 warnings (junk, =x, k=)", got, w, want)
	}
	if got, _ := parseOverrides("poly1305=generic"); got["poly1305"] != genericName {
		t.Errorf("generic override = %q, want %q", got["poly1305"], genericName)
	}
}

const childEnv = "TUNELAB_DISPATCH_TEST_CHILD"

// TestEnvChild is the body of TestEnvMasksAndOverrides, run in a child
// process so that the environment is read at first use.
func TestEnvChild(t *testing.T) {
	if os.Getenv(childEnv) != "1" {
		t.Skip("runs only as TestEnvMasksAndOverrides's child")
	}
	fmt.Printf("has avx512vl=%v avx512f=%v\n", cpu.Has("avx512vl"), cpu.Has("avx512f"))
	fmt.Printf("masked=%s\n", strings.Join(cpu.Host().MaskedList(), " "))
	for range 2 {
		fmt.Printf("test.k=%s\n", planString(Plan("test.k", testCands)))
	}
	fmt.Printf("test.j=%s\n", planString(Plan("test.j", testCands)))
	fmt.Printf("plans=%d\n", len(Plans()))
}

func TestEnvMasksAndOverrides(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestEnvChild$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"=1",
		cpu.EnvCPU+"=avx512f=off,bogus=off",
		EnvDispatch+"=test.k=isa=nope,test.j=generic,junk,keccak.x44=generic,test.k=isa=\x1b[31mred")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr.String())
	}
	stdout := string(out)
	for _, want := range []string{
		"has avx512vl=false avx512f=false\n",
		"test.k=0:isa=generic:generic\n",
		"test.j=0:isa=generic:override\n",
		"plans=2\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("child stdout lacks %q:\n%s", want, stdout)
		}
	}
	if host, _ := cpu.Identify(""); host.Has("avx512f") && !strings.Contains(stdout, "masked=avx512f avx512bw") {
		t.Errorf("child does not report avx512* masked:\n%s", stdout)
	}
	for _, w := range []string{`"bogus"`, `"junk"`, `entry "keccak.x44=generic" has no effect: no kernel "keccak.x44"`,
		`entry "test.k=isa=\x1b[31mred" ignored`, `entry "test.j=isa=generic" applies: test.j runs "isa=generic"`} {
		if n := countLines(stderr.String(), w); n != 1 {
			t.Errorf("stderr has %d lines about %s, want one:\n%s", n, w, stderr.String())
		}
	}
	if strings.ContainsRune(stderr.String(), 0x1b) || strings.Contains(stderr.String(), "isa=nope") {
		t.Errorf("stderr prints a raw escape sequence, or an override a later entry replaced:\n%q", stderr.String())
	}
}

// countLines counts the lines of s containing sub.
func countLines(s, sub string) int {
	n := 0
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, sub) {
			n++
		}
	}
	return n
}
