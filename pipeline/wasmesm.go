package pipeline

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// An import of a .wasm file itself (import { add } from "./add.wasm") is a WebAssembly module
// as the WebAssembly ES module integration reads it, which Vite 8 builds: its imports are
// ES imports of the modules its import section names (another .wasm module gives its raw
// exports, so that a mutable global stays shared), its exports are the module's exports, a
// WebAssembly.Global unwrapped to its value. bundle compiles it to a module of script that
// instantiates the bytes with top-level await; the names come from the binary's import and
// export sections, read here by the WebAssembly core specification's binary format.

// wasmExportsName is the export of a compiled .wasm module that holds its raw exports.
const wasmExportsName = "__wasmExports"

// wasmInterface is what a module's binary imports (module names, in order, each once) and
// exports (names).
type wasmInterface struct {
	imports []string
	exports []string
}

// readWasmInterface reads the import (id 2) and export (id 7) sections of a WebAssembly
// binary module.
func readWasmInterface(b []byte) (wasmInterface, error) {
	var w wasmInterface
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return w, errors.New("not a WebAssembly module (no \\0asm magic)")
	}
	if b[4] != 1 || b[5] != 0 || b[6] != 0 || b[7] != 0 {
		return w, errors.New("not a WebAssembly module of version 1 (a component?)")
	}
	r := &wasmReader{b: b, at: 8}
	seen := map[string]bool{}
	for r.at < len(r.b) {
		id := r.byte()
		size := r.u32()
		end := r.at + int(size)
		if r.err != nil || end > len(r.b) || end < r.at {
			return w, fmt.Errorf("section %d at byte %d runs past the end", id, r.at)
		}
		switch id {
		case 2:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				mod, _ := r.name(), r.name()
				switch kind := r.byte(); kind {
				case 0x00: // func: type index
					r.u32()
				case 0x01: // table: reference type, limits
					r.byte()
					r.limits()
				case 0x02: // memory: limits
					r.limits()
				case 0x03: // global: value type, mutability
					r.byte()
					r.byte()
				case 0x04: // tag: attribute, type index
					r.byte()
					r.u32()
				default:
					return w, fmt.Errorf("import of %q: unknown kind 0x%02x", mod, kind)
				}
				if !seen[mod] {
					seen[mod] = true
					w.imports = append(w.imports, mod)
				}
			}
		case 7:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				name := r.name()
				r.byte()
				r.u32()
				w.exports = append(w.exports, name)
			}
		}
		if r.err != nil {
			return w, r.err
		}
		r.at = end
	}
	return w, nil
}

// wasmReader reads the binary format's values: bytes, unsigned LEB128 integers, names.
type wasmReader struct {
	b   []byte
	at  int
	err error
}

func (r *wasmReader) byte() byte {
	if r.err != nil || r.at >= len(r.b) {
		r.fail()
		return 0
	}
	r.at++
	return r.b[r.at-1]
}

// u64 reads an unsigned LEB128 integer of up to 64 bits.
func (r *wasmReader) u64() uint64 {
	var v uint64
	for shift := uint(0); shift < 70; shift += 7 {
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v
		}
	}
	r.fail()
	return 0
}

func (r *wasmReader) u32() uint32 { return uint32(r.u64()) }

func (r *wasmReader) name() string {
	n := int(r.u32())
	if r.err != nil || n < 0 || r.at+n > len(r.b) {
		r.fail()
		return ""
	}
	r.at += n
	return string(r.b[r.at-n : r.at])
}

// limits reads a table's or memory's limits: a flag, its minimum, and a maximum when the
// flag's bit 0 says so (memory64 and shared flags included).
func (r *wasmReader) limits() {
	flag := r.byte()
	r.u64()
	if flag&1 != 0 {
		r.u64()
	}
}

func (r *wasmReader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("the module ends early or is malformed at byte %d", r.at)
	}
}

// wasmModule is the module of script a .wasm file imported directly compiles to.
func wasmModule(data []byte) (string, error) {
	w, err := readWasmInterface(data)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	imports := []string{}
	for i, mod := range w.imports {
		spec, _ := json.Marshal(mod)
		fmt.Fprintf(&b, "import * as __i%d from %s;\n", i, spec)
		val := fmt.Sprintf("__i%d", i)
		if strings.HasSuffix(strings.ToLower(strings.SplitN(mod, "?", 2)[0]), ".wasm") {
			val += "." + wasmExportsName // another module's raw exports: its globals shared
		}
		imports = append(imports, fmt.Sprintf("%s: %s", spec, val))
	}
	fmt.Fprintf(&b, "const __b = Uint8Array.from(atob(%q), (c) => c.charCodeAt(0));\n", base64.StdEncoding.EncodeToString(data))
	fmt.Fprintf(&b, "const { instance: __inst } = await WebAssembly.instantiate(__b, {%s});\n", strings.Join(imports, ", "))
	fmt.Fprintf(&b, "export const %s = __inst.exports;\n", wasmExportsName)
	b.WriteString("const __v = (x) => (x instanceof WebAssembly.Global ? x.value : x);\n")
	for i, name := range w.exports {
		n, _ := json.Marshal(name)
		fmt.Fprintf(&b, "const __e%d = __v(__inst.exports[%s]);\nexport { __e%d as %s };\n", i, n, i, n)
	}
	return b.String(), nil
}

// loadWasm loads a .wasm file imported directly as the module of script it compiles to,
// or an error at the file that says what to do.
func (b *bundler) loadWasm(path string, data []byte) api.OnLoadResult {
	fail := func(text, note string) api.OnLoadResult {
		return api.OnLoadResult{Errors: []api.Message{{Text: text, Location: &api.Location{File: path}, Notes: []api.Note{{Text: note}}}}}
	}
	if !b.m.Wasm {
		return fail(errNeedsWasm.Error(), fmt.Sprintf("add wasm = true to %s", filepath.Base(b.m.File)))
	}
	js, err := wasmModule(data)
	if err != nil {
		return fail(fmt.Sprintf("%s cannot be imported as a WebAssembly module: %v", filepath.Base(path), err), "replace it with the real file, or import its bytes with ?url or ?init")
	}
	return api.OnLoadResult{Contents: &js, Loader: api.LoaderJS, ResolveDir: filepath.Dir(path)}
}
