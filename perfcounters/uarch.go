package perfcounters

import (
	"fmt"
	"sort"
	"strings"
)

// A uarchEvent is a named front-end event of one microarchitecture group,
// encoded as a raw PMU event.
type uarchEvent struct {
	group  string // see uarchGroup
	name   string // tunelab's name, shared across vendors where the meaning matches
	fields RawFields
	source string // vendor event name and document
}

// Microarchitecture groups sharing front-end event encodings.
const (
	groupZen3       = "Zen 3"
	groupZen4       = "Zen 4"
	groupZen5       = "Zen 5"
	groupSkylake    = "Skylake"     // Skylake, Kaby/Coffee/Comet Lake, Skylake-SP, Cascade/Cooper Lake
	groupIceLake    = "Ice Lake"    // Ice Lake client/server, Tiger Lake, Rocket Lake (Sunny/Willow/Cypress Cove)
	groupGoldenCove = "Golden Cove" // Alder/Raptor Lake P-cores, Sapphire/Emerald Rapids
)

// uarchEvents lists the front-end events relevant to code alignment: how
// many ops come from the op cache (AMD) / decoded stream buffer (Intel)
// versus the legacy decoders, op-cache hits and misses, and L1I misses.
//
// Sources: AMD "Processor Programming Reference (PPR)" for family 19h model
// 01h (Zen 3, pub. 56214), family 19h model 11h (Zen 4, pub. 55901) and
// family 1Ah (Zen 5, pub. 57238), section "Core Performance Monitor
// Counters", with the Linux perf JSON names (tools/perf/pmu-events/arch/x86/
// amdzen3|4|5); Intel perfmon event lists (github.com/intel/perfmon:
// SKL/SKX, ICL/ICX, ADL/SPR core events) with the event names given.
var uarchEvents = []uarchEvent{
	// AMD Zen 3: PMCx28F OpCacheHitMiss, PMCx0AA DeDisUopsFromDecoder, PMCx18E IcTagHitMiss.
	{groupZen3, "opcache-hits", RawFields{Event: 0x28f, Umask: 0x03}, "AMD PPR 19h/01h PMCx28F op_cache_hit_miss.op_cache_hit"},
	{groupZen3, "opcache-misses", RawFields{Event: 0x28f, Umask: 0x04}, "AMD PPR 19h/01h PMCx28F op_cache_hit_miss.op_cache_miss"},
	{groupZen3, "ops-from-opcache", RawFields{Event: 0x0aa, Umask: 0x02}, "AMD PPR 19h/01h PMCx0AA de_dis_uops_from_decoder.opcache_dispatched"},
	{groupZen3, "ops-from-decoder", RawFields{Event: 0x0aa, Umask: 0x01}, "AMD PPR 19h/01h PMCx0AA de_dis_uops_from_decoder.decoder_dispatched"},
	{groupZen3, "l1i-misses", RawFields{Event: 0x18e, Umask: 0x18}, "AMD PPR 19h/01h PMCx18E ic_tag_hit_miss.instruction_cache_miss"},
	// AMD Zen 4: PMCx28F OpCacheHitMiss, PMCx0AA DeSrcOpDisp, PMCx18E IcTagHitMiss.
	{groupZen4, "opcache-hits", RawFields{Event: 0x28f, Umask: 0x03}, "AMD PPR 19h/11h PMCx28F op_cache_hit_miss.op_cache_hit"},
	{groupZen4, "opcache-misses", RawFields{Event: 0x28f, Umask: 0x04}, "AMD PPR 19h/11h PMCx28F op_cache_hit_miss.op_cache_miss"},
	{groupZen4, "ops-from-opcache", RawFields{Event: 0x0aa, Umask: 0x02}, "AMD PPR 19h/11h PMCx0AA de_src_op_disp.op_cache"},
	{groupZen4, "ops-from-decoder", RawFields{Event: 0x0aa, Umask: 0x01}, "AMD PPR 19h/11h PMCx0AA de_src_op_disp.x86_decoder"},
	{groupZen4, "l1i-misses", RawFields{Event: 0x18e, Umask: 0x18}, "AMD PPR 19h/11h PMCx18E ic_tag_hit_miss.instruction_cache_miss"},
	// AMD Zen 5: same event selects as Zen 4 in PPR 1Ah.
	{groupZen5, "opcache-hits", RawFields{Event: 0x28f, Umask: 0x03}, "AMD PPR 1Ah PMCx28F op_cache_hit_miss.op_cache_hit"},
	{groupZen5, "opcache-misses", RawFields{Event: 0x28f, Umask: 0x04}, "AMD PPR 1Ah PMCx28F op_cache_hit_miss.op_cache_miss"},
	{groupZen5, "ops-from-opcache", RawFields{Event: 0x0aa, Umask: 0x02}, "AMD PPR 1Ah PMCx0AA de_src_op_disp.op_cache"},
	{groupZen5, "ops-from-decoder", RawFields{Event: 0x0aa, Umask: 0x01}, "AMD PPR 1Ah PMCx0AA de_src_op_disp.x86_decoder"},
	{groupZen5, "l1i-misses", RawFields{Event: 0x18e, Umask: 0x18}, "AMD PPR 1Ah PMCx18E ic_tag_hit_miss.instruction_cache_miss"},
	// Intel Skylake family (perfmon SKL/SKX).
	{groupSkylake, "ops-from-opcache", RawFields{Event: 0x79, Umask: 0x08}, "Intel perfmon SKL IDQ.DSB_UOPS"},
	{groupSkylake, "ops-from-decoder", RawFields{Event: 0x79, Umask: 0x04}, "Intel perfmon SKL IDQ.MITE_UOPS"},
	{groupSkylake, "dsb-to-mite-switch-cycles", RawFields{Event: 0xab, Umask: 0x02}, "Intel perfmon SKL DSB2MITE_SWITCHES.PENALTY_CYCLES"},
	{groupSkylake, "l1i-misses", RawFields{Event: 0x83, Umask: 0x02}, "Intel perfmon SKL ICACHE_64B.IFTAG_MISS"},
	{groupSkylake, "l1i-miss-stall-cycles", RawFields{Event: 0x80, Umask: 0x04}, "Intel perfmon SKL ICACHE_16B.IFDATA_STALL"},
	// Intel Ice Lake family (perfmon ICL/ICX).
	{groupIceLake, "ops-from-opcache", RawFields{Event: 0x79, Umask: 0x08}, "Intel perfmon ICL IDQ.DSB_UOPS"},
	{groupIceLake, "ops-from-decoder", RawFields{Event: 0x79, Umask: 0x04}, "Intel perfmon ICL IDQ.MITE_UOPS"},
	{groupIceLake, "dsb-to-mite-switch-cycles", RawFields{Event: 0xab, Umask: 0x02}, "Intel perfmon ICL DSB2MITE_SWITCHES.PENALTY_CYCLES"},
	{groupIceLake, "l1i-misses", RawFields{Event: 0x83, Umask: 0x02}, "Intel perfmon ICL ICACHE_64B.IFTAG_MISS"},
	{groupIceLake, "l1i-miss-stall-cycles", RawFields{Event: 0x80, Umask: 0x04}, "Intel perfmon ICL ICACHE_16B.IFDATA_STALL"},
	// Intel Golden Cove (perfmon SPR, ADL P-core).
	{groupGoldenCove, "ops-from-opcache", RawFields{Event: 0x79, Umask: 0x08}, "Intel perfmon SPR IDQ.DSB_UOPS"},
	{groupGoldenCove, "ops-from-decoder", RawFields{Event: 0x79, Umask: 0x04}, "Intel perfmon SPR IDQ.MITE_UOPS"},
	{groupGoldenCove, "dsb-to-mite-switch-cycles", RawFields{Event: 0x61, Umask: 0x02}, "Intel perfmon SPR DSB2MITE_SWITCHES.PENALTY_CYCLES"},
	{groupGoldenCove, "l1i-miss-stall-cycles", RawFields{Event: 0x80, Umask: 0x04}, "Intel perfmon SPR ICACHE_DATA.STALLS"},
	{groupGoldenCove, "itag-miss-stall-cycles", RawFields{Event: 0x83, Umask: 0x04}, "Intel perfmon SPR ICACHE_TAG.STALLS"},
}

// uarchGroups maps microarchitecture names (as kernels/cpu reports
// them, compared case-insensitively by prefix) to event groups.
var uarchGroups = []struct{ prefix, group string }{
	{"zen 3", groupZen3}, {"zen 4", groupZen4}, {"zen 5", groupZen5},
	{"skylake", groupSkylake}, {"cascade lake", groupSkylake}, {"cooper lake", groupSkylake},
	{"kaby lake", groupSkylake}, {"coffee lake", groupSkylake}, {"comet lake", groupSkylake},
	{"ice lake", groupIceLake}, {"tiger lake", groupIceLake}, {"rocket lake", groupIceLake},
	{"alder lake", groupGoldenCove}, {"raptor lake", groupGoldenCove},
	{"sapphire rapids", groupGoldenCove}, {"emerald rapids", groupGoldenCove},
}

// uarchGroup returns the event group of a microarchitecture name, or "".
func uarchGroup(uarch string) string {
	u := strings.ToLower(strings.TrimSpace(uarch))
	for _, g := range uarchGroups {
		if strings.HasPrefix(u, g.prefix) {
			return g.group
		}
	}
	return ""
}

// UarchEvents returns the named front-end events defined for uarch (a
// kernels/cpu microarchitecture name such as "Zen 4" or "Sapphire
// Rapids"), or nil when the table has none for it. On hybrid Intel parts
// (Alder/Raptor Lake) the events are P-core (Golden Cove) encodings.
func UarchEvents(uarch string) []Spec {
	g := uarchGroup(uarch)
	var out []Spec
	for _, e := range uarchEvents {
		if e.group == g {
			out = append(out, uarchSpec(e))
		}
	}
	return out
}

func uarchSpec(e uarchEvent) Spec {
	return Spec{Name: e.name, Kind: Raw, Type: typeRaw, Config: e.fields.Config(), Unit: "count",
		Doc: e.group + ": " + e.source}
}

// UarchEventNames returns every named front-end event, sorted.
func UarchEventNames() []string {
	seen := map[string]bool{}
	var names []string
	for _, e := range uarchEvents {
		if !seen[e.name] {
			seen[e.name] = true
			names = append(names, e.name)
		}
	}
	sort.Strings(names)
	return names
}

// lookupUarch resolves a named front-end event for uarch. ok is false if
// name is not a named event at all; err is set if it is one, but not for
// this microarchitecture.
func lookupUarch(name, uarch string) (s Spec, ok bool, err error) {
	known := false
	for _, e := range uarchEvents {
		if e.name != name {
			continue
		}
		known = true
		if e.group == uarchGroup(uarch) {
			return uarchSpec(e), true, nil
		}
	}
	if known {
		return Spec{}, false, fmt.Errorf("named event %q is not defined for microarchitecture %q", name, uarch)
	}
	return Spec{}, false, nil
}
