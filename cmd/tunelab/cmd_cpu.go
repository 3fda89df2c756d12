package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/tunelab/tunelab/kernels/cpu"
)

func init() {
	register(&command{
		name:    "cpu",
		summary: "show the CPU identity: model, microarchitecture, dispatch key, features",
		run:     runCPU,
	})
}

// cpuSource returns the CPU that `tunelab cpu` describes (tests replace it).
var cpuSource = cpu.Host

func runCPU(e *env, args []string) error {
	fs := newFlags(e, "cpu", "cpu [--json]")
	asJSON := fs.Bool("json", false, "print the identity as JSON")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	info := newCPUInfo(cpuSource())
	if *asJSON {
		return cpuWriteJSON(e.stdout, info)
	}
	info.print(e.stdout)
	return nil
}

// cpuInfo is the identity as `tunelab cpu` shows it.
type cpuInfo struct {
	Vendor         string   `json:"vendor"`
	Brand          string   `json:"brand"`
	Family         int      `json:"family"`
	Model          int      `json:"model"`
	Stepping       int      `json:"stepping"`
	Signature      string   `json:"signature"`
	Uarch          string   `json:"uarch"`
	Codename       string   `json:"codename"`
	DispatchKey    string   `json:"dispatch_key"`
	FeatureLevel   string   `json:"feature_level"`
	Extras         []string `json:"extras"`
	Features       []string `json:"features"`
	Masked         []string `json:"masked"`
	LogicalCores   int      `json:"logical_cores"`
	PhysicalCores  int      `json:"physical_cores"`
	ThreadsPerCore int      `json:"threads_per_core"`
	Cache          cpuCache `json:"cache_bytes"`
	Hypervisor     string   `json:"hypervisor"`
}

type cpuCache struct {
	L1I int `json:"l1i"`
	L1D int `json:"l1d"`
	L2  int `json:"l2"`
	L3  int `json:"l3"`
}

func newCPUInfo(c *cpu.CPU) cpuInfo {
	return cpuInfo{
		Vendor: c.Vendor, Brand: c.Brand,
		Family: c.Family, Model: c.Model, Stepping: c.Stepping,
		Signature:    fmt.Sprintf("0x%08x", c.Signature),
		Uarch:        c.Uarch(),
		Codename:     c.Codename(),
		DispatchKey:  c.Key(),
		FeatureLevel: c.Level(),
		Extras:       cpuNonNil(c.Extras()),
		Features:     cpuNonNil(c.FeatureList()),
		Masked:       cpuNonNil(c.MaskedList()),
		LogicalCores: c.LogicalCores, PhysicalCores: c.PhysicalCores, ThreadsPerCore: c.ThreadsPerCore,
		Cache:      cpuCache{c.Cache.L1I, c.Cache.L1D, c.Cache.L2, c.Cache.L3},
		Hypervisor: c.Hypervisor,
	}
}

func (i cpuInfo) print(w io.Writer) {
	row := func(k, v string) { fmt.Fprintf(w, "%-15s %s\n", k, v) }
	row("vendor", i.Vendor)
	row("brand", i.Brand)
	row("family", fmt.Sprintf("0x%02x", i.Family))
	row("model", fmt.Sprintf("0x%02x", i.Model))
	row("stepping", fmt.Sprint(i.Stepping))
	row("signature", i.Signature)
	row("uarch", i.Uarch)
	row("codename", cpuOrDash(i.Codename))
	row("dispatch key", i.DispatchKey)
	row("feature level", i.FeatureLevel)
	row("extras", cpuOrDash(strings.Join(i.Extras, " ")))
	row("features", cpuOrDash(strings.Join(i.Features, " ")))
	masked := "none"
	if len(i.Masked) > 0 {
		masked = strings.Join(i.Masked, " ") + " (by " + cpu.EnvCPU + ")"
	}
	row("masked", masked)
	row("logical cores", cpuCount(i.LogicalCores))
	row("physical cores", cpuCount(i.PhysicalCores))
	row("threads/core", cpuCount(i.ThreadsPerCore))
	row("cache", fmt.Sprintf("L1I %s, L1D %s, L2 %s, L3 %s",
		cpuCacheSize(i.Cache.L1I), cpuCacheSize(i.Cache.L1D), cpuCacheSize(i.Cache.L2), cpuCacheSize(i.Cache.L3)))
	row("hypervisor", cpuOrDash(i.Hypervisor))
}

// cacheSize formats a byte count as KiB or MiB; "?" when unknown.
func cpuCacheSize(n int) string {
	switch {
	case n <= 0:
		return "?"
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

func cpuCount(n int) string {
	if n <= 0 {
		return "?"
	}
	return fmt.Sprint(n)
}

func cpuOrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func cpuNonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// cpuWriteJSON writes v as indented JSON.
func cpuWriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("writing json: %w", err)
	}
	return nil
}
