package tablesrc

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strconv"
	"strings"

	"github.com/tunelab/tunelab/kernels/dispatch"
)

// ParseTable parses the source of a ztable.go as FormatTable writes it and
// returns its table and sources: FormatTable's inverse, so that an
// existing table can be merged with new measurements. Anything
// FormatTable does not write is an error.
func ParseTable(src []byte) (dispatch.Table, []string, error) {
	var t dispatch.Table
	if !strings.HasPrefix(string(src), TableHeader+"\n") {
		return t, nil, fmt.Errorf("parsing dispatch table: does not start with %q", TableHeader)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "ztable.go", src, parser.ParseComments)
	if err != nil {
		return t, nil, fmt.Errorf("parsing dispatch table: %w", err)
	}
	d := tableDecoder{features: map[string][]string{}}
	for _, decl := range f.Decls {
		if err := d.decl(decl, &t); err != nil {
			return dispatch.Table{}, nil, fmt.Errorf("parsing dispatch table: %w", err)
		}
	}
	return t, tableSources(f), nil
}

// tableSources returns the lines of the "Generated from:" comment.
func tableSources(f *ast.File) []string {
	var out []string
	for _, g := range f.Comments {
		lines := strings.Split(strings.TrimSuffix(g.Text(), "\n"), "\n")
		if lines[0] != "Generated from:" {
			continue
		}
		for _, l := range lines[1:] {
			out = append(out, strings.TrimPrefix(l, "\t"))
		}
	}
	return out
}

// A tableDecoder evaluates the declarations of a generated table.
type tableDecoder struct {
	features map[string][]string // entryFeatures variables
}

func (d *tableDecoder) decl(decl ast.Decl, t *dispatch.Table) error {
	g, ok := decl.(*ast.GenDecl)
	if !ok || g.Tok != token.VAR {
		return fmt.Errorf("unexpected declaration %T", decl)
	}
	for _, spec := range g.Specs {
		vs := spec.(*ast.ValueSpec)
		if len(vs.Names) != 1 || len(vs.Values) != 1 {
			return fmt.Errorf("unexpected declaration of %d names", len(vs.Names))
		}
		if err := d.spec(vs.Names[0].Name, vs.Values[0], t); err != nil {
			return fmt.Errorf("%s: %w", vs.Names[0].Name, err)
		}
	}
	return nil
}

func (d *tableDecoder) spec(name string, value ast.Expr, t *dispatch.Table) error {
	switch {
	case name == "tableEntries":
		var es []dispatch.Entry
		err := d.eval(value, reflect.ValueOf(&es).Elem())
		t.Entries = append(es, t.Entries...)
		return err
	case name == "legacyBaseEntries":
		var es []dispatch.Entry
		err := d.eval(value, reflect.ValueOf(&es).Elem())
		for _, e := range es {
			e.LegacyBase = true
			t.Entries = append(t.Entries, e)
		}
		return err
	case name == "tableDefaults":
		return d.eval(value, reflect.ValueOf(&t.Defaults).Elem())
	case strings.HasPrefix(name, "entryFeatures"):
		var fs []string
		err := d.eval(value, reflect.ValueOf(&fs).Elem())
		d.features[name] = fs
		return err
	}
	return fmt.Errorf("unexpected variable")
}

// eval evaluates a literal of strings, ints, slices and structs, or a
// feature set variable, into v.
func (d *tableDecoder) eval(e ast.Expr, v reflect.Value) error {
	switch e := e.(type) {
	case *ast.BasicLit:
		return evalBasic(e, v)
	case *ast.Ident:
		fs, ok := d.features[e.Name]
		if !ok || v.Type() != reflect.TypeOf(fs) {
			return fmt.Errorf("unexpected identifier %s", e.Name)
		}
		v.Set(reflect.ValueOf(fs))
		return nil
	case *ast.CompositeLit:
		return d.composite(e, v)
	}
	return fmt.Errorf("unexpected expression %T", e)
}

func evalBasic(e *ast.BasicLit, v reflect.Value) error {
	switch {
	case e.Kind == token.STRING && v.Kind() == reflect.String:
		s, err := strconv.Unquote(e.Value)
		v.SetString(s)
		return err
	case e.Kind == token.INT && v.Kind() == reflect.Int:
		n, err := strconv.ParseInt(e.Value, 0, 64)
		v.SetInt(n)
		return err
	}
	return fmt.Errorf("unexpected %s literal %s for a %s", e.Kind, e.Value, v.Type())
}

func (d *tableDecoder) composite(e *ast.CompositeLit, v reflect.Value) error {
	switch v.Kind() {
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), len(e.Elts), len(e.Elts)))
		for i, el := range e.Elts {
			if err := d.eval(el, v.Index(i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Struct:
		for _, el := range e.Elts {
			if err := d.field(el, v); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unexpected literal for a %s", v.Type())
}

// field evaluates one "Name: value" element of a struct literal into v.
func (d *tableDecoder) field(el ast.Expr, v reflect.Value) error {
	kv, ok := el.(*ast.KeyValueExpr)
	if !ok {
		return fmt.Errorf("unexpected element of a %s literal", v.Type())
	}
	key, ok := kv.Key.(*ast.Ident)
	if !ok || !v.FieldByName(key.Name).IsValid() {
		return fmt.Errorf("unexpected field of a %s literal", v.Type())
	}
	if err := d.eval(kv.Value, v.FieldByName(key.Name)); err != nil {
		return fmt.Errorf("%s: %w", key.Name, err)
	}
	return nil
}
