package pipeline

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"unsafe"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"

	"github.com/miniapp/bundle/internal/jsstring"
)

// A define whose value is an object or an array (import.meta.env's, Vite's object of every
// public variable) esbuild makes a module of its own that every module of the build imports;
// when a CommonJS module is in the build, that module is then wrapped in esbuild's lazy-init
// wrapper, and every module calls the wrapper once (38 to 147 calls in the framework
// examples), whether it reads the object or not. Such a define is given to esbuild as a
// reserved name instead (objectDefineName), which esbuild leaves as written where kept code
// reads the object whole; the one output that reads it gets the object declared once in front
// (declareObjectDefines). Each of its members defined on its own (import.meta.env.MODE) is
// still a constant where it is read.

// objectDefineName is the name a define with an object or array value is given to esbuild
// as: the define's key after a prefix no package uses, its dots written $_ and its dollar
// signs $$, so that two keys never get one name (a.b and a_b, a$.b and a.$b).
func objectDefineName(key string) string {
	return reservedDefinePrefix + strings.NewReplacer("$", "$$", ".", "$_").Replace(key)
}

// reservedDefinePrefix starts every objectDefineName.
const reservedDefinePrefix = "__bundle_define_"

// reservedName refuses, at the significant token i, a name of the app's that starts with
// reservedDefinePrefix or reservedHelperPrefix (escapes read as the language reads them): esbuild's define resolves
// the name it puts where import.meta.env is read in the scope it is read from, so an app's
// own binding of that name would be what import.meta.env reads, and its global would be
// the declared object. A member (o.__bundle_define_x) is no binding and is left; an object
// literal's key of that name is refused with the rest (a key and a name read alike).
func (r *rewrite) reservedName(i int) {
	if t := r.s.tok(i).tt; t != js.IdentifierToken || r.s.is(i-1, ".") || r.s.is(i-1, "?.") {
		return
	}
	name, ok := jsstring.Identifier(r.s.text(i))
	if ok && (strings.HasPrefix(name, reservedDefinePrefix) || strings.HasPrefix(name, reservedHelperPrefix)) {
		ok = !r.notBinding(i)
	}
	switch {
	case !ok:
	case strings.HasPrefix(name, reservedDefinePrefix):
		r.errAt(i, name+" is a name bundle gives the objects it defines (import.meta.env's is "+objectDefineName("import.meta.env")+"): where code reads import.meta.env, the app's own "+name+" would be read",
			"rename it: names starting with "+reservedDefinePrefix+" are bundle's")
	case strings.HasPrefix(name, reservedHelperPrefix):
		r.errAt(i, name+" is a name bundle gives what it adds to a script (the import() helper "+afterTaskHelper+", the names of the imports it adds): where the app's own "+name+" is in scope, the build's code would read it",
			"rename it: names starting with "+reservedHelperPrefix+" are bundle's")
	}
}

// notBinding reports whether the significant token i is a name that is no binding and reads
// none (notBindings), the script parsed the first time it is asked.
func (r *rewrite) notBinding(i int) bool {
	if r.notBindings == nil {
		r.notBindings = notBindings(r.s.js)
	}
	return r.notBindings[r.s.tok(i).start]
}

// notBindings returns the offsets in src (esbuild's JavaScript of an app script) of the
// names that are no binding and read none: a property's name before its colon, a method's,
// a class member's, a label, and the names an import or export gives another module's
// bindings. Such a name neither shadows nor is read for what the build adds (a property
// __miniapp_x of an object, an attribute of JSX). A shorthand property ({ a }) reads a, and
// is not one. Empty where src does not parse (every name then counts).
func notBindings(src []byte) map[int]bool {
	out := map[int]bool{}
	buf := make([]byte, len(src), len(src)+1)
	copy(buf, src)
	ast, err := js.Parse(parse.NewInputBytes(buf), js.Options{})
	if err != nil {
		return out
	}
	// The parse's names are slices of buf where they are written there (a shorthand's key
	// is a copy); another slice is at no offset of buf.
	mark := func(data []byte) {
		if len(data) == 0 {
			return
		}
		off := int(uintptr(unsafe.Pointer(unsafe.SliceData(data))) - uintptr(unsafe.Pointer(unsafe.SliceData(buf))))
		if off >= 0 && off < len(buf) {
			out[off] = true
		}
	}
	name := func(n *js.PropertyName) {
		if n != nil && !n.IsComputed() {
			mark(n.Literal.Data)
		}
	}
	js.Walk(nameVisitor(func(n js.INode) {
		switch n := n.(type) {
		case *js.Property:
			name(n.Name)
		case *js.BindingObjectItem:
			name(n.Key)
		case *js.MethodDecl:
			name(&n.Name.PropertyName)
		case *js.Field:
			name(&n.Name.PropertyName)
		case *js.ClassElement:
			if n.Method == nil && n.StaticBlock == nil {
				name(&n.Field.Name.PropertyName)
			}
		case *js.LabelledStmt:
			mark(n.Label)
		case *js.BranchStmt:
			mark(n.Label)
		case *js.ImportStmt:
			for _, a := range n.List {
				if a.Binding != nil {
					mark(a.Name) // import { name as binding }
				}
			}
		case *js.ExportStmt:
			for _, a := range n.List {
				if n.Module != nil {
					mark(a.Name) // export { name as alias } from "…": another module's
					mark(a.Binding)
				} else if a.Name != nil {
					mark(a.Binding) // export { binding as alias }
				}
			}
		}
	}), ast)
	return out
}

// nameVisitor calls itself on each node of a walk.
type nameVisitor func(js.INode)

func (v nameVisitor) Enter(n js.INode) js.IVisitor { v(n); return v }
func (v nameVisitor) Exit(js.INode)                {}

// reservedHelperPrefix starts every name the transforms add to a script (afterTaskHelper,
// dynamicImportHelper, rewrite.ident, nschain's aliases): an app's own binding of such a name,
// in the scope of an import() the build rewrote, was what the rewritten call read (an
// import() in a function with a parameter __miniapp_afterTask threw "o is not a function",
// exit 0: fidelity row aftertask_name).
const reservedHelperPrefix = "__miniapp_"

// objectValued reports whether esbuild takes a define's value as an object or array literal:
// a value that is not a name or a chain of names is JSON, and an object or array when it
// opens with { or [.
func objectValued(value string) bool {
	v := strings.TrimSpace(value)
	return strings.HasPrefix(v, "{") || strings.HasPrefix(v, "[")
}

// esbuildDefines returns define as esbuild is given it: each object or array value replaced
// by its objectDefineName.
func esbuildDefines(define map[string]string) map[string]string {
	var out map[string]string
	for k, v := range define {
		if !objectValued(v) {
			continue
		}
		if out == nil {
			out = make(map[string]string, len(define))
			for k, v := range define {
				out[k] = v
			}
		}
		out[k] = objectDefineName(k)
	}
	if out == nil {
		return define
	}
	return out
}

// declareObjectDefines returns the declarations, minified for target, of the object defines
// that js reads (it holds their names), one line, or "" when it reads none. A name found in a
// string of js only declares what nothing reads.
func declareObjectDefines(js string, define map[string]string, target api.Target, engines []api.Engine) (string, error) {
	var keys []string
	for k, v := range define {
		if objectValued(v) && strings.Contains(js, objectDefineName(k)) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return "", nil
	}
	slices.Sort(keys)
	var src strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&src, "var %s = %s;\n", objectDefineName(k), jsonAsJS(define[k]))
	}
	res := api.Transform(src.String(), api.TransformOptions{Loader: api.LoaderJS, Target: target, Engines: engines,
		MinifyWhitespace: true, MinifySyntax: true, Charset: api.CharsetUTF8, LogLevel: api.LogLevelSilent})
	if len(res.Errors) > 0 {
		return "", fmt.Errorf("the define %s: %s", strings.Join(keys, ", "), res.Errors[0].Text)
	}
	return strings.TrimSuffix(string(res.Code), "\n") + "\n", nil
}

// jsonAsJS returns the JSON value v as a JavaScript expression that makes the same value, as
// esbuild's define and JSON.parse make it: a "__proto__" key is written computed, which
// defines an own property, where in a literal it would set the object's prototype. A value Go
// does not read as JSON is returned as it is (esbuild says what is wrong with it).
func jsonAsJS(v string) string {
	dec := json.NewDecoder(strings.NewReader(v))
	dec.UseNumber()
	var b strings.Builder
	var value func() error
	value = func() error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		d, ok := tok.(json.Delim)
		if !ok {
			q, err := json.Marshal(tok) // a string, a json.Number, a bool or nil
			b.Write(q)
			return err
		}
		b.WriteRune(rune(d))
		for i := 0; dec.More(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if d == '{' {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				q, _ := json.Marshal(k)
				if k == "__proto__" {
					fmt.Fprintf(&b, "[%s]", q)
				} else {
					b.Write(q)
				}
				b.WriteByte(':')
			}
			if err := value(); err != nil {
				return err
			}
		}
		end, err := dec.Token()
		if err != nil {
			return err
		}
		b.WriteRune(rune(end.(json.Delim)))
		return nil
	}
	if err := value(); err != nil || dec.More() {
		return v
	}
	if _, err := dec.Token(); err != io.EOF {
		return v
	}
	return b.String()
}

// shiftMap returns the source map m of a script with n lines put in front of it.
func shiftMap(m []byte, n int) []byte {
	sm, ok := decodeMap(m)
	if !ok {
		return m
	}
	sm.Mappings = strings.Repeat(";", n) + sm.Mappings
	if out, ok := sm.encode(); ok {
		return out
	}
	return m
}
