package catalog

import "strings"

// A Rename maps a name of an older commit onto today's. The generators'
// renames are declared here, in one place, when a knob, a knob value or
// a kernel is renamed (or a knob is added whose old behaviour is one of
// its values), so that result files collected before the change keep
// their meaning: a reader applies every rename to every name, in order.
// A rename is idempotent (a name without From is left as it is), so
// applying it to today's names changes nothing.
type Rename struct {
	// Kernel is the kernel whose names are renamed, "" for every kernel.
	Kernel string
	// OldKernel, NewKernel rename the kernel itself (From and To empty).
	OldKernel, NewKernel string
	// From and To are knob parts "key=value": a part From becomes To;
	// To "" drops the part. A From ending in "=*" matches any value of
	// its key, and a To ending in "=*" keeps the value ("old=* ->
	// new=*" renames a knob).
	From, To string
	// After, with From empty, adds To after the part with knob key
	// After when the name has no part with To's key: a knob added with
	// To as what older variants did.
	After string
	// Since is the commit that made the change, for the record.
	Since string
}

// renames are the renames of the generators' names, oldest first.
var renames = []Rename{}

// Renames returns the renames in effect, oldest first.
func Renames() []Rename { return append([]Rename(nil), renames...) }

// Apply returns kernel and name with every rename of rs applied.
func Apply(rs []Rename, kernel, name string) (string, string) {
	for _, r := range rs {
		kernel, name = r.apply(kernel, name)
	}
	return kernel, name
}

// apply applies one rename.
func (r Rename) apply(kernel, name string) (string, string) {
	if r.OldKernel != "" {
		if kernel == r.OldKernel {
			kernel = r.NewKernel
		}
		return kernel, name
	}
	if r.Kernel != "" && r.Kernel != kernel {
		return kernel, name
	}
	parts := strings.Split(name, "/")
	if r.From == "" {
		return kernel, strings.Join(r.insert(parts), "/")
	}
	var out []string
	for _, p := range parts {
		if !matchPart(r.From, p) {
			out = append(out, p)
			continue
		}
		if to := renamePart(r.To, p); to != "" {
			out = append(out, to)
		}
	}
	return kernel, strings.Join(out, "/")
}

// insert adds To after the part whose key is After, unless a part has
// To's key.
func (r Rename) insert(parts []string) []string {
	key := keyOf(r.To)
	for _, p := range parts {
		if keyOf(p) == key {
			return parts
		}
	}
	for i, p := range parts {
		if keyOf(p) == r.After {
			return append(parts[:i+1:i+1], append([]string{r.To}, parts[i+1:]...)...)
		}
	}
	return parts
}

// matchPart reports whether part p matches pattern ("key=value" or
// "key=*").
func matchPart(pattern, p string) bool {
	if k, ok := strings.CutSuffix(pattern, "=*"); ok {
		return keyOf(p) == k
	}
	return p == pattern
}

// renamePart returns what part p becomes under To.
func renamePart(to, p string) string {
	if k, ok := strings.CutSuffix(to, "=*"); ok {
		_, v, _ := strings.Cut(p, "=")
		return k + "=" + v
	}
	return to
}

func keyOf(part string) string {
	k, _, _ := strings.Cut(part, "=")
	return k
}
