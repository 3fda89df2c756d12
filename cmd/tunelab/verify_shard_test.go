package main

import (
	"strings"
	"testing"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/variant"
)

// TestShardSplitsLabVariants: the shards of N tiers together verify every
// lab variant once, each shard every production variant, and a lab
// variant needing more than the common features wherever it runs; with
// --lab-above, the lab variants a lower tier runs are left to it.
func TestShardSplitsLabVariants(t *testing.T) {
	k := &variant.Kernel{Name: "aes128.enc"}
	prod := productionVariants()[k.Name]
	var prodName string
	for name := range prod {
		if name != variant.GenericName {
			prodName = name
			break
		}
	}
	common := "avx,avx2,avx512f,avx512vl,aes"
	tasks := []harness.VerifyTask{
		{Kernel: k, Variant: &variant.Variant{Name: prodName, Features: []string{"aes"}}},
		{Kernel: k, Variant: &variant.Variant{Name: "isa=vaes512/lab", Features: []string{"avx512f", "vaes"}}},
		{Kernel: k, Variant: &variant.Variant{Name: "isa=vaes512/skipped", Features: []string{"avx512f", "vaes"}}, Skip: "host lacks vaes"},
	}
	for i := 0; i < 40; i++ {
		tasks = append(tasks, harness.VerifyTask{Kernel: k, Variant: &variant.Variant{Name: "isa=avx512vl/lab=" + strings.Repeat("x", i), Features: []string{"avx512f"}}},
			harness.VerifyTask{Kernel: k, Variant: &variant.Variant{Name: "isa=avx2/lab=" + strings.Repeat("x", i), Features: []string{"avx2"}}})
	}
	seen := map[string]int{}
	for _, above := range []string{"", "x86-64-v3"} {
		clear(seen)
		for i := 0; i < 2; i++ {
			s, err := parseShard(string(rune('0'+i))+"/2", common, above)
			if err != nil {
				t.Fatal(err)
			}
			out, _, err := s.filter(tasks)
			if err != nil {
				t.Fatal(err)
			}
			for _, task := range out {
				seen[task.Variant.Name]++
			}
		}
		if seen[prodName] != 2 || seen["isa=vaes512/lab"] != 2 || seen["isa=vaes512/skipped"] != 2 {
			t.Errorf("above %q: production %d, beyond-common %d, %d times; want each shard to keep them", above, seen[prodName], seen["isa=vaes512/lab"], seen["isa=vaes512/skipped"])
		}
		for i := 0; i < 40; i++ {
			if n := seen["isa=avx512vl/lab="+strings.Repeat("x", i)]; n != 1 {
				t.Errorf("above %q: a lab variant every tier runs verified %d times, want once", above, n)
			}
			want := 1
			if above != "" {
				want = 0
			}
			if n := seen["isa=avx2/lab="+strings.Repeat("x", i)]; n != want {
				t.Errorf("above %q: an AVX2 lab variant verified %d times, want %d", above, n, want)
			}
		}
	}
	skipCommon := []harness.VerifyTask{{Kernel: k, Variant: &variant.Variant{Name: "isa=avx512vl/lab", Features: []string{"avx512f"}}, Skip: "host lacks avx512f"}}
	s, _ := parseShard("0/2", common, "")
	s1, _ := parseShard("1/2", common, "")
	_, _, err0 := s.filter(skipCommon)
	_, _, err1 := s1.filter(skipCommon)
	if err0 == nil && err1 == nil || err0 != nil && !strings.Contains(err0.Error(), "fix --shard-common") {
		t.Errorf("a common-feature variant the host skips: errors %v, %v; want the shard that holds it to refuse", err0, err1)
	}
	for _, bad := range [][3]string{{"2/2", common, ""}, {"x", common, ""}, {"0/2", "", ""}, {"0/2", "avx9", ""}, {"", common, ""}, {"0/2", common, "x86-64-v9"}} {
		if _, err := parseShard(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("parseShard(%q, %q, %q): no error", bad[0], bad[1], bad[2])
		}
	}
}
