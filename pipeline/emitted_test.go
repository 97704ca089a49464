package pipeline

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/offline"
)

// TestMetafileImportsReachTheCheck: the import records esbuild prints into a script are read
// from its metafile, and the final check refuses the script by them, as it would by parsing
// it: the path the build takes instead of parsing its bundles again.
func TestMetafileImportsReachTheCheck(t *testing.T) {
	dir := t.TempDir()
	res := api.Build(api.BuildOptions{
		Stdin: &api.StdinOptions{Contents: `import "https://cdn.example/a.js"; export const b = () => import("https://cdn.example/b.js"); console.log("import x from 'y'")`,
			ResolveDir: dir, Sourcefile: "in.js"},
		AbsWorkingDir: dir, Outdir: "out", Bundle: true, Write: false, Metafile: true, Format: api.FormatESModule,
		MinifyWhitespace: true, External: []string{"https://*"}, LogLevel: api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors[0].Text)
	}
	b := &bundler{root: dir, inputs: map[string]int{}}
	imports := b.recordInputs(res.Metafile)
	meta, ok := imports["out/stdin.js"]
	recs := meta.imports
	if !ok || len(recs) != 2 || recs[0] != (offline.Import{Specifier: "https://cdn.example/a.js"}) || recs[1] != (offline.Import{Specifier: "https://cdn.example/b.js", Dynamic: true}) {
		t.Fatalf("records from the metafile: %v", imports)
	}
	js := escapeScript(string(res.OutputFiles[0].Contents))
	page := []byte(`<!doctype html><meta charset="utf-8"><script type="module">` + js + `</script>`)
	listed, err := offline.Check("p.html", page, offline.Options{Emitted: map[string][]offline.Import{js: recs}})
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := offline.Check("p.html", page, offline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(listed) != 2 || len(parsed) != 2 || listed[0].Offset != parsed[0].Offset || listed[1].Offset != parsed[1].Offset {
		t.Errorf("from the metafile %v; parsed %v", listed, parsed)
	}
	// The inputs are skipped, not decoded: what is read is what a full decode reads.
	full := &bundler{root: dir, inputs: map[string]int{}}
	if again := full.recordInputs(" " + res.Metafile); !reflect.DeepEqual(again, imports) || !reflect.DeepEqual(full.inputs, b.inputs) || len(b.inputs) == 0 {
		t.Errorf("skipping the inputs read %v %v; decoding all %v %v", imports, b.inputs, again, full.inputs)
	}
	// An input named outputs is not where the outputs begin.
	named := &bundler{root: dir, inputs: map[string]int{}}
	tricky := strings.Replace(res.Metafile, `{"inputs":{`, `{"inputs":{"outputs":{"bytes":1,"imports":[]},`, 1)
	if again := named.recordInputs(tricky); !reflect.DeepEqual(again, imports) {
		t.Errorf("with an input named outputs: %v", again)
	}
	if b.recordInputs("{not json") != nil {
		t.Error("a metafile that does not read gave records: the check must parse instead")
	}
}

// TestPlaceholdersHashAsTheirTexts: the policy's hashes computed over a page with placeholders
// for the bundles are those computed over the filled page, and fill gives back every text.
func TestPlaceholdersHashAsTheirTexts(t *testing.T) {
	dirs := []string{sampleDir(t, "hello"), sampleDir(t, "todo-ts"), sampleDir(t, "order-book"), filepath.Join("testdata", "features", "classic")}
	for _, dir := range dirs {
		a := appAssembler(t, dir)
		skeleton := a.assemble().page
		page := a.fill(skeleton)
		if len(a.texts) == 0 || bytes.Contains(page, []byte("\xff")) {
			t.Fatalf("%s: %d texts; a placeholder left: %v", dir, len(a.texts), bytes.Contains(page, []byte("\xff")))
		}
		for _, text := range a.texts {
			if !bytes.Contains(page, []byte(text)) {
				t.Errorf("%s: a text is not in the filled page", dir)
			}
		}
		got := scriptHashes(scriptTexts(readBuilt(skeleton), skeleton, a.texts))
		if want := scriptHashes(scriptTexts(readBuilt(page), page, nil)); !reflect.DeepEqual(got, want) || len(want) == 0 {
			t.Errorf("%s: hashes over the skeleton %v, over the page %v", dir, got, want)
		}
	}
	// What looks like a placeholder but is not one of the assembler's stays as it is.
	a := &assembler{texts: []string{"T0"}}
	for in, want := range map[string]string{
		"a" + placeholder(0) + "b" + placeholder(0): "aT0bT0",
		"a\xffminiapp:": "a\xffminiapp:", "\xffminiapp:7\xff" + placeholder(0): "\xffminiapp:7\xffT0",
		"\xffminiapp:x" + placeholder(0): "\xffminiapp:xT0",
	} {
		if got := string(a.fill([]byte(in))); got != want {
			t.Errorf("fill(%q) = %q, want %q", in, got, want)
		}
	}
	if i, ok := placeholderIndex(placeholder(12)); !ok || i != 12 {
		t.Error("placeholderIndex does not read placeholder")
	}
	for _, s := range []string{"\xffminiapp:x\xff", "miniapp:1", "\xffminiapp:1", "\xffminiapp:-1\xff"} {
		if _, ok := placeholderIndex(s); ok {
			t.Errorf("%q read as a placeholder", s)
		}
	}
}

// recordInputs reads a build's metafile (readMetafile) and records every output of it
// (record), as each does output by output.
func (b *bundler) recordInputs(metafile string) map[string]outputMeta {
	metas := readMetafile(metafile)
	for _, m := range metas {
		b.record(m)
	}
	return metas
}
