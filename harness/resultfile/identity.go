package resultfile

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/tunelab/tunelab/kernels/cpu"
)

// An identityCheck checks one config value of a result's host identity.
// A value that keys results (dispatch key, vendor, family, model,
// features, run-id) and has the wrong shape makes its results unusable:
// they are skipped. A value that only labels them (uarch, feature-level,
// tsc-hz) is dropped from the result instead.
type identityCheck struct {
	key   string
	check func(string) error
	drop  bool // drop the value rather than skip the result
}

// identityChecks are applied to every result, in this order.
var identityChecks = []identityCheck{
	{"dispatch-key", checkKey, false},
	{"cpu-vendor", cpu.CheckVendor, false},
	{"cpu-family", checkHex, false},
	{"cpu-model", checkHex, false},
	{"features", CheckFeatures, false},
	{"run-id", CheckRunID, false},
	{"uarch", cpu.CheckUarch, true},
	{"feature-level", checkLevel, true},
	{"tsc-hz", checkHz, true},
}

func checkKey(s string) error {
	_, _, _, err := cpu.ParseKey(s)
	return err
}

func checkHex(s string) error {
	_, err := cpu.ParseHexNumber(s)
	return err
}

// CheckFeatures returns an error unless s is a comma-separated list of
// at most 128 feature names, each 1 to 32 lowercase ASCII letters,
// digits and underscores (known to kernels/cpu or not).
func CheckFeatures(s string) error {
	names := strings.Split(s, ",")
	if len(names) > 128 {
		return fmt.Errorf("expected at most 128 feature names, got %d", len(names))
	}
	for _, f := range names {
		f = strings.TrimSpace(f)
		if len(f) > 32 || strings.Trim(f, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
			return fmt.Errorf("expected comma-separated feature names of lowercase letters, digits and _, got %q", f)
		}
	}
	return nil
}

// CheckRunID returns an error unless s is 1 to 64 ASCII letters, digits
// and . _ - (a sweep writes 16 hexadecimal digits).
func CheckRunID(s string) error {
	if len(s) == 0 || len(s) > 64 || strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != "" {
		return fmt.Errorf("expected a run-id of 1 to 64 ASCII letters, digits and ._-, got %q", s)
	}
	return nil
}

func checkLevel(s string) error {
	switch s {
	case "x86-64-v1", "x86-64-v2", "x86-64-v3", "x86-64-v4":
		return nil
	}
	return fmt.Errorf("expected a feature level x86-64-v1..v4, got %q", s)
}

func checkHz(s string) error {
	hz, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(hz) || hz <= 0 || hz > 1e11 {
		return fmt.Errorf("expected a TSC frequency in Hz between 0 and 1e11, got %q", s)
	}
	return nil
}

// An identityState remembers the last value of each checked key and
// whether it passed, so that a value is checked (and warned about) once
// per config line, not once per result.
type identityState struct {
	last    map[string]string
	lastErr map[string]error
	skipped int // results skipped for a value warned about before
	// version is the config version last checked and ok its outcome.
	version uint64
	ok      bool
	checked bool
	drops   uint64 // values left out so far (each changes the config)
}

func newIdentityState() identityState {
	return identityState{last: map[string]string{}, lastErr: map[string]error{}}
}

// check applies identityChecks to res: it drops label values of the
// wrong shape and returns false (after warning once per value) when a
// key value has the wrong shape.
func (s *identityState) check(res *benchfmt.Result, line int, version uint64, warn func(int, string, ...any)) bool {
	if s.checked && version == s.version {
		if !s.ok {
			s.skipped++
		}
		return s.ok
	}
	s.checked, s.version = true, version
	s.ok = s.checkAll(res, line, warn)
	return s.ok
}

// checkAll applies every check to res (whose config changed).
func (s *identityState) checkAll(res *benchfmt.Result, line int, warn func(int, string, ...any)) bool {
	for _, c := range identityChecks {
		v := res.GetConfig(c.key)
		if v == "" {
			s.last[c.key], s.lastErr[c.key] = "", nil
			continue
		}
		if prev, ok := s.last[c.key]; ok && prev == v {
			if s.lastErr[c.key] != nil {
				s.skipped++
				return false
			}
			continue
		}
		err := c.check(v)
		s.last[c.key], s.lastErr[c.key] = v, err
		switch {
		case err == nil:
		case c.drop:
			warn(line, "%s: %v; the value is left out", c.key, err)
			res.SetConfig(c.key, "")
			s.last[c.key], s.lastErr[c.key] = "", nil
			s.drops++
		default:
			warn(line, "%s: %v; results with this %s are skipped", c.key, err, c.key)
			return false
		}
	}
	return true
}
