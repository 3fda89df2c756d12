package perfcounters

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// A Kind classifies an event by where it is counted.
type Kind int

// Event kinds.
const (
	Hardware Kind = iota // generic hardware event (PERF_TYPE_HARDWARE)
	HWCache              // hardware cache event (PERF_TYPE_HW_CACHE)
	Raw                  // raw PMU event code (PERF_TYPE_RAW)
	Software             // kernel software event (PERF_TYPE_SOFTWARE)
)

// String returns the kind's name as used in listings.
func (k Kind) String() string {
	switch k {
	case Hardware:
		return "hardware"
	case HWCache:
		return "hw-cache"
	case Raw:
		return "raw"
	case Software:
		return "software"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// perf_event_attr.type values (include/uapi/linux/perf_event.h).
const (
	typeHardware = 0
	typeSoftware = 1
	typeHWCache  = 3
	typeRaw      = 4
)

// A Spec describes one event to count or sample.
type Spec struct {
	// Name is the event's name as given (or its canonical name for
	// aliases), used in Status, Read and result files.
	Name string
	// Kind says how the event is counted.
	Kind Kind
	// Type and Config are perf_event_attr.type and .config.
	Type   uint32
	Config uint64
	// Unit is the unit of the count: "count" or "nanoseconds".
	Unit string
	// Doc is a short description, with the source of named uarch events.
	Doc string
}

// ParseSpecs parses a comma-separated event list for the host's
// microarchitecture (see HostUarch). Raw events in the
// "event=0x..,umask=0x.." form keep their own commas; they can also be
// written as "cpu/event=0x..,umask=0x../".
func ParseSpecs(list string) ([]Spec, error) {
	return ParseSpecsFor(list, HostUarch())
}

// ParseSpecsFor is ParseSpecs with named microarchitecture events resolved
// for uarch (a kernels/cpu microarchitecture name such as "Zen 4").
func ParseSpecsFor(list, uarch string) ([]Spec, error) {
	items, err := splitList(list)
	if err != nil {
		return nil, err
	}
	specs := make([]Spec, 0, len(items))
	seen := map[string]bool{}
	for i, item := range items {
		s, err := parseOne(item, uarch)
		if err != nil {
			return nil, fmt.Errorf("parsing event list: item %d %q: %w", i+1, item, err)
		}
		if seen[s.Name] {
			return nil, fmt.Errorf("parsing event list: item %d %q: event listed twice", i+1, item)
		}
		seen[s.Name] = true
		specs = append(specs, s)
	}
	return specs, nil
}

// rawTermKeys are the terms that continue an "event=..." raw event in a
// comma-separated list.
var rawTermKeys = map[string]bool{"umask": true, "cmask": true, "inv": true, "edge": true}

// splitList splits an event list on commas, keeping the terms of a raw
// "event=..,umask=.." event together, and "cpu/.../" groups intact.
func splitList(list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return nil, fmt.Errorf("parsing event list: no events given")
	}
	var items []string
	inRaw := false
	for _, tok := range splitOutsideSlashes(list) {
		tok = strings.TrimSpace(tok)
		if tok == "" {
			return nil, fmt.Errorf("parsing event list %q: empty item", list)
		}
		key, _, _ := strings.Cut(tok, "=")
		if inRaw && rawTermKeys[key] {
			items[len(items)-1] += "," + tok
			continue
		}
		inRaw = key == "event"
		items = append(items, tok)
	}
	return items, nil
}

// splitOutsideSlashes splits s on commas that are not inside a "pmu/.../"
// group.
func splitOutsideSlashes(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch {
		case c == '/':
			depth ^= 1
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// parseOne parses one event item.
func parseOne(item, uarch string) (Spec, error) {
	if s, ok := lookupFixed(item); ok {
		return s, nil
	}
	if s, ok, err := lookupUarch(item, uarch); ok || err != nil {
		return s, err
	}
	if pmu, body, ok := strings.Cut(item, "/"); ok {
		return parsePMUGroup(item, pmu, body)
	}
	if strings.HasPrefix(item, "event=") {
		cfg, err := parseRawTerms(item)
		return rawSpec(item, cfg), err
	}
	if len(item) > 1 && item[0] == 'r' && isHex(item[1:]) {
		cfg, err := strconv.ParseUint(item[1:], 16, 64)
		if err != nil {
			return Spec{}, fmt.Errorf("raw event code: %w", err)
		}
		return rawSpec(item, cfg), nil
	}
	return Spec{}, fmt.Errorf("unknown event (known: %s; named front-end events: %s; raw: rNNNN or event=0x..,umask=0x..[,cmask=N,inv,edge])",
		strings.Join(KnownNames(), ", "), strings.Join(UarchEventNames(), ", "))
}

func parsePMUGroup(item, pmu, body string) (Spec, error) {
	if pmu != "cpu" && pmu != "r" {
		return Spec{}, fmt.Errorf("unknown PMU %q (only cpu/.../ is supported)", pmu)
	}
	if !strings.HasSuffix(body, "/") {
		return Spec{}, fmt.Errorf("missing closing '/'")
	}
	cfg, err := parseRawTerms(strings.TrimSuffix(body, "/"))
	return rawSpec(item, cfg), err
}

func rawSpec(name string, cfg uint64) Spec {
	return Spec{Name: name, Kind: Raw, Type: typeRaw, Config: cfg, Unit: "count", Doc: "raw PMU event"}
}

func isHex(s string) bool {
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return s != ""
}

// RawFields are the fields of an x86 PMU event select (the perf "cpu"
// PMU format: /sys/bus/event_source/devices/cpu/format).
type RawFields struct {
	Event uint16 // event select, 12 bits (AMD uses bits 8-11)
	Umask uint8  // unit mask
	Cmask uint8  // counter mask: count cycles with >= Cmask events
	Inv   bool   // invert the counter-mask comparison
	Edge  bool   // count rising edges only
}

// Config returns the perf_event_attr.config encoding of f: event bits 0-7
// and 32-35 (event[11:8]), umask 8-15, edge 18, inv 23, cmask 24-31.
func (f RawFields) Config() uint64 {
	c := uint64(f.Event&0xff) | uint64(f.Event>>8&0xf)<<32
	c |= uint64(f.Umask) << 8
	c |= uint64(f.Cmask) << 24
	if f.Edge {
		c |= 1 << 18
	}
	if f.Inv {
		c |= 1 << 23
	}
	return c
}

// parseRawTerms parses "event=0x..,umask=0x..[,cmask=N][,inv][,edge]".
func parseRawTerms(s string) (uint64, error) {
	var f RawFields
	haveEvent := false
	for _, term := range strings.Split(s, ",") {
		key, val, hasVal := strings.Cut(strings.TrimSpace(term), "=")
		var err error
		switch key {
		case "event":
			var v uint64
			v, err = parseField(key, val, 12)
			f.Event, haveEvent = uint16(v), true
		case "umask":
			var v uint64
			v, err = parseField(key, val, 8)
			f.Umask = uint8(v)
		case "cmask":
			var v uint64
			v, err = parseField(key, val, 8)
			f.Cmask = uint8(v)
		case "inv", "edge":
			on := !hasVal || val == "1"
			if hasVal && val != "0" && val != "1" {
				err = fmt.Errorf("term %s=%q: want 0 or 1", key, val)
			}
			if key == "inv" {
				f.Inv = on
			} else {
				f.Edge = on
			}
		default:
			err = fmt.Errorf("unknown raw term %q (want event, umask, cmask, inv, edge)", key)
		}
		if err != nil {
			return 0, err
		}
	}
	if !haveEvent {
		return 0, fmt.Errorf("raw event needs event=0x..")
	}
	return f.Config(), nil
}

func parseField(key, val string, bits int) (uint64, error) {
	v, err := strconv.ParseUint(val, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("term %s=%q: not a number", key, val)
	}
	if v >= 1<<bits {
		return 0, fmt.Errorf("term %s=%#x: exceeds %d bits", key, v, bits)
	}
	return v, nil
}

// KnownNames returns the names of the generic hardware, hardware cache and
// software events, sorted.
func KnownNames() []string {
	var names []string
	for _, s := range fixedEvents {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	return names
}
