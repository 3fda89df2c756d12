package cpu

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

const childEnv = "TUNELAB_CPU_TEST_CHILD"

// TestHostChild is the body of TestHostMask, run in a child process so
// that TUNELAB_CPU is read at first use.
func TestHostChild(t *testing.T) {
	if os.Getenv(childEnv) != "1" {
		t.Skip("runs only as TestHostMask's child")
	}
	fmt.Printf("has avx512vl=%v avx512f=%v\n", Has("avx512vl"), Has("avx512f"))
	c := Host()
	c.Vendor = "changed"
	fmt.Printf("masked=%s\n", strings.Join(Host().MaskedList(), " "))
	fmt.Printf("copy=%v\n", Host().Vendor != "changed")
}

// TestHostMask checks that Host and Has apply TUNELAB_CPU, warn once per
// ignored entry, and that Host returns a copy.
func TestHostMask(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostChild$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"=1", EnvCPU+"=avx512f=off,bogus=off,bogus=off")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr.String())
	}
	stdout := string(out)
	for _, want := range []string{"has avx512vl=false avx512f=false\n", "copy=true\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("child stdout lacks %q:\n%s", want, stdout)
		}
	}
	if host, _ := Identify(""); host.Has("avx512f") && !strings.Contains(stdout, "masked=avx512f avx512bw") {
		t.Errorf("child does not report avx512* masked:\n%s", stdout)
	}
	if n := strings.Count(stderr.String(), `"bogus"`); n != 1 {
		t.Errorf("stderr names \"bogus\" %d times, want once:\n%s", n, stderr.String())
	}
}
