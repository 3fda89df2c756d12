package harness

import (
	"fmt"

	"golang.org/x/perf/benchfmt"
)

// A RunIdentity holds a run's identity config (IdentityKeys) as its first
// result fixed it, with the file:line that did: readers of result files
// (sweep --resume, reports) hold every later result of the run to it.
type RunIdentity map[string]ConfigAt

// A ConfigAt is a config value and the file:line that set it.
type ConfigAt struct{ Value, At string }

// Check records the identity of the run's first result and refuses, with
// at (file:line), a later result that changes one of IdentityKeys.
func (id RunIdentity) Check(res *benchfmt.Result, at string) error {
	return id.check(res, at, IdentityKeys)
}

// check records the values of keys of the run's first result and
// refuses a later result that changes one.
func (id RunIdentity) check(res *benchfmt.Result, at string, keys []string) error {
	for _, key := range keys {
		v := res.GetConfig(key)
		if first, ok := id[key]; !ok {
			id[key] = ConfigAt{v, at}
		} else if first.Value != v {
			return fmt.Errorf("%s: %s changed from %q (set at %s) to %q within run %s: a run's identity is fixed", at, key, first.Value, first.At, v, res.GetConfig("run-id"))
		}
	}
	return nil
}
