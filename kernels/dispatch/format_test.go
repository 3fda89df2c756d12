package dispatch

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

var sampleEntries = []Entry{
	{Vendor: VendorIntel, Family: 6, Model: 0xcf, Uarch: "Emerald Rapids", Kernel: "poly1305",
		Choices: []Choice{ch(256, "isa=scalar"), ch(0, "isa=avx512/radix=44")}},
	{Vendor: VendorAMD, Family: 0x19, Model: 0x11, Uarch: "Zen 4", Kernel: "keccak.x4",
		Choices: []Choice{ch(0, `isa=avx512vl/rot=prol/"quoted"`)}},
}

var sampleDefaults = []Default{
	{Level: LevelV3, Features: []string{"avx2"}, Kernel: "keccak.x4", Choices: []Choice{ch(0, "isa=avx2")}},
	{Kernel: "keccak.x4", Choices: []Choice{ch(0, genericName)}},
	{Level: LevelV4, Features: []string{"avx512f", "avx512vl"}, Kernel: "keccak.x4", Choices: []Choice{ch(0, "isa=avx512vl")}},
}

func TestFormatTableRoundTrip(t *testing.T) {
	src, err := FormatTable(sampleEntries, sampleDefaults, []string{"sha256:abcd results/zen4.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(src, []byte(TableHeader+"\n")) {
		t.Errorf("output does not start with %q:\n%s", TableHeader, src)
	}
	entries, defaults := decodeTable(t, src)
	wantEntries := []Entry{sampleEntries[1], sampleEntries[0]} // sorted by key
	wantDefaults := []Default{sampleDefaults[2], sampleDefaults[0], sampleDefaults[1]}
	if !reflect.DeepEqual(entries, wantEntries) {
		t.Errorf("entries round trip:\n got %+v\nwant %+v\nsource:\n%s", entries, wantEntries, src)
	}
	if !reflect.DeepEqual(defaults, wantDefaults) {
		t.Errorf("defaults round trip:\n got %+v\nwant %+v\nsource:\n%s", defaults, wantDefaults, src)
	}
	again, _ := FormatTable(wantEntries, wantDefaults, []string{"sha256:abcd results/zen4.txt"})
	if !bytes.Equal(src, again) {
		t.Error("output depends on input order")
	}
}

func TestFormatTableEmptyMatchesShape(t *testing.T) {
	src, err := FormatTable(nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := TableHeader + "\n\npackage dispatch\n\nvar tableEntries = []Entry{}\n\nvar tableDefaults = []Default{}\n"
	if string(src) != want {
		t.Errorf("empty table:\n%s\nwant:\n%s", src, want)
	}
}

// TestCompiledTableIsExporterOutput checks that ztable.go is what
// FormatTable writes for its own contents.
func TestCompiledTableIsExporterOutput(t *testing.T) {
	file, err := os.ReadFile("ztable.go")
	if err != nil {
		t.Fatal(err)
	}
	var sources []string
	for _, line := range strings.Split(string(file), "\n") {
		if s, ok := strings.CutPrefix(line, "//\t"); ok {
			sources = append(sources, s)
		}
	}
	src, err := FormatTable(tableEntries, tableDefaults, sources)
	if err != nil {
		t.Fatalf("compiled table does not validate: %v", err)
	}
	if !bytes.Equal(src, file) {
		t.Errorf("ztable.go differs from FormatTable of its contents:\n%s", src)
	}
}

func TestFormatTableRejects(t *testing.T) {
	good := sampleEntries[0]
	with := func(f func(*Entry)) []Entry {
		e := good
		e.Choices = append([]Choice{}, good.Choices...)
		f(&e)
		return []Entry{e}
	}
	tests := []struct {
		name     string
		entries  []Entry
		defaults []Default
		sources  []string
		want     string
	}{
		{"empty vendor", with(func(e *Entry) { e.Vendor = "" }), nil, nil, "empty vendor"},
		{"empty kernel", with(func(e *Entry) { e.Kernel = "" }), nil, nil, "empty kernel"},
		{"no choices", with(func(e *Entry) { e.Choices = nil }), nil, nil, "no choices"},
		{"empty variant", with(func(e *Entry) { e.Choices[0].Variant = "" }), nil, nil, "empty variant"},
		{"bounded last", with(func(e *Entry) { e.Choices[1].MaxSize = 512 }), nil, nil, "last choice must be unbounded"},
		{"unsorted", with(func(e *Entry) { e.Choices = []Choice{ch(512, "a"), ch(256, "b"), ch(0, "c")} }), nil, nil, "not above"},
		{"negative", with(func(e *Entry) { e.Choices[0].MaxSize = -1 }), nil, nil, "negative max size"},
		{"duplicate entry", []Entry{good, good}, nil, nil, "duplicate entry"},
		{"bad level", nil, []Default{{Level: "v3", Kernel: "k", Choices: []Choice{ch(0, "a")}}}, nil, `unknown level "v3"`},
		{"bad feature", nil, []Default{{Features: []string{"avx-512"}, Kernel: "k", Choices: []Choice{ch(0, "a")}}}, nil, `unknown feature "avx-512"`},
		{"duplicate default", nil, []Default{sampleDefaults[0], sampleDefaults[0]}, nil, "duplicate default"},
		{"source newline", nil, nil, []string{"a\nvar x = 1"}, "line break"},
	}
	for _, tt := range tests {
		src, err := FormatTable(tt.entries, tt.defaults, tt.sources)
		if err == nil || !strings.Contains(err.Error(), tt.want) || src != nil {
			t.Errorf("%s: err %v (output %d bytes), want error containing %q and no output", tt.name, err, len(src), tt.want)
		}
	}
}

// decodeTable parses generated source and evaluates its two composite
// literals into values.
func decodeTable(t *testing.T, src []byte) ([]Entry, []Default) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "ztable.go", src, 0)
	if err != nil {
		t.Fatalf("generated table does not parse: %v\n%s", err, src)
	}
	var entries []Entry
	var defaults []Default
	for _, d := range f.Decls {
		vs := d.(*ast.GenDecl).Specs[0].(*ast.ValueSpec)
		switch vs.Names[0].Name {
		case "tableEntries":
			decodeExpr(t, vs.Values[0], reflect.ValueOf(&entries).Elem())
		case "tableDefaults":
			decodeExpr(t, vs.Values[0], reflect.ValueOf(&defaults).Elem())
		}
	}
	return entries, defaults
}

// decodeExpr evaluates a literal of strings, ints, slices and structs.
func decodeExpr(t *testing.T, e ast.Expr, v reflect.Value) {
	t.Helper()
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			if err != nil {
				t.Fatal(err)
			}
			v.SetString(s)
			return
		}
		n, err := strconv.ParseInt(e.Value, 0, 64)
		if err != nil {
			t.Fatal(err)
		}
		v.SetInt(n)
	case *ast.CompositeLit:
		decodeComposite(t, e, v)
	default:
		t.Fatalf("unexpected expression %T in generated table", e)
	}
}

func decodeComposite(t *testing.T, e *ast.CompositeLit, v reflect.Value) {
	t.Helper()
	if v.Kind() == reflect.Slice {
		v.Set(reflect.MakeSlice(v.Type(), len(e.Elts), len(e.Elts)))
		for i, el := range e.Elts {
			decodeExpr(t, el, v.Index(i))
		}
		return
	}
	for _, el := range e.Elts {
		kv := el.(*ast.KeyValueExpr)
		field := v.FieldByName(kv.Key.(*ast.Ident).Name)
		if !field.IsValid() {
			t.Fatalf("generated table sets unknown field %s of %s", kv.Key, v.Type())
		}
		decodeExpr(t, kv.Value, field)
	}
}
