package pipeline

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestLazyStyles reads which stylesheets only a dynamic import reaches from a metafile, as
// esbuild writes one: per entry, what static imports reach is not lazy.
func TestLazyStyles(t *testing.T) {
	rows := []struct {
		name    string
		entries []string
		imports []string // "from kind to"
		lazy    []string
		mixed   bool
		scoped  bool // the config names CSS Modules (generateScopedName)
	}{
		{"static", []string{"main.js"}, []string{"main.js import-statement a.css"}, nil, false, false},
		{"dynamic script's", []string{"main.js"}, []string{"main.js dynamic-import lazy.js", "lazy.js import-statement b.css", "b.css import-rule c.css"}, []string{"b.css"}, false, false},
		{"import() of a stylesheet", []string{"main.js"}, []string{"main.js dynamic-import b.css"}, []string{"b.css"}, false, false},
		{"static too", []string{"main.js"}, []string{"main.js dynamic-import lazy.js", "lazy.js import-statement b.css", "main.js import-statement b.css"}, nil, false, false},
		{"@imported by a static one", []string{"main.js"}, []string{"main.js import-statement a.css", "a.css import-rule b.css", "main.js dynamic-import lazy.js", "lazy.js import-statement b.css"}, nil, false, false},
		{"sass", []string{"main.js"}, []string{"main.js dynamic-import lazy.js", "lazy.js require-call b.scss"}, []string{"b.scss"}, false, false},
		{"CSS Module, the config names it", []string{"main.js"}, []string{"main.js dynamic-import lazy.js", "lazy.js import-statement b.module.css"}, nil, false, true},
		{"CSS Module esbuild would name", []string{"main.js"}, []string{"main.js dynamic-import lazy.js", "lazy.js import-statement b.module.css"}, []string{"b.module.css"}, false, false},
		{"CSS Module esbuild would name, static", []string{"main.js"}, []string{"main.js import-statement b.module.css"}, nil, false, false},
		{"CSS Module by a convention", []string{"main.js"}, []string{"main.js dynamic-import lazy.js", "lazy.js import-statement miniapp-cssmod:b.module.css", "miniapp-cssmod:b.module.css import-statement b.module.css"}, []string{"b.module.css"}, false, false},
		{"CSS Module composed", []string{"main.js"}, []string{"main.js dynamic-import lazy.js", "lazy.js import-statement b.module.css", "b.module.css composes-from c.module.css"}, []string{"b.module.css", "c.module.css"}, false, false},
		{"CSS Module composed, the other file static", []string{"main.js"}, []string{"main.js dynamic-import lazy.js", "main.js import-statement c.module.css", "lazy.js import-statement b.module.css", "b.module.css composes-from c.module.css"}, []string{"b.module.css"}, false, false},
		{"a scoped CSS Module's rules", []string{"main.js"}, []string{"main.js dynamic-import lazy.js", "lazy.js import-statement miniapp-scoped:b.module.css",
			"miniapp-scoped:b.module.css import-statement miniapp-style:b.module.css", "miniapp-style:b.module.css import-statement b.module.css"}, []string{"b.module.css"}, false, true},
		{"a scoped CSS Module's rules, static", []string{"main.js"}, []string{"main.js import-statement miniapp-scoped:b.module.css",
			"miniapp-scoped:b.module.css import-statement miniapp-style:b.module.css", "miniapp-style:b.module.css import-statement b.module.css"}, nil, false, true},
		{"a component's styles", []string{"main.js"}, []string{"main.js dynamic-import lazy.js", "lazy.js import-statement x.vue", "x.vue import-statement miniapp-component-css:x.vue"}, []string{"miniapp-component-css:x.vue"}, false, false},
		{"a component's styles, static", []string{"main.js"}, []string{"main.js import-statement x.vue", "x.vue import-statement miniapp-component-css:x.vue"}, nil, false, false},
		{"another plugin's", []string{"main.js"}, []string{"main.js dynamic-import lazy.js", "lazy.js import-statement miniapp-style:x.css"}, nil, false, false},
		{"a graph's wrappers", []string{"miniapp-inline:0"}, []string{"miniapp-inline:0 dynamic-import miniapp-inline:0.2", "miniapp-inline:0.2 import-statement m.js", "m.js import-statement a.css"}, nil, false, false},
		{"two entries, lazy in both", []string{"e1.js", "e2.js"}, []string{"e1.js dynamic-import lazy.js", "e2.js dynamic-import lazy.js", "lazy.js import-statement b.css"}, []string{"b.css"}, false, false},
		{"two entries, static in one", []string{"e1.js", "e2.js"}, []string{"e1.js dynamic-import lazy.js", "e2.js import-statement b.css", "lazy.js import-statement b.css"}, []string{"b.css"}, true, false},
	}
	type imp struct {
		Path string `json:"path"`
		Kind string `json:"kind"`
	}
	type input struct {
		Imports []imp `json:"imports"`
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			inputs := map[string]*input{}
			for _, s := range r.imports {
				f := strings.Fields(s)
				for _, p := range []string{f[0], f[2]} {
					if inputs[p] == nil {
						inputs[p] = &input{Imports: []imp{}}
					}
				}
				inputs[f[0]].Imports = append(inputs[f[0]].Imports, imp{f[2], f[1]})
			}
			outputs := map[string]any{}
			for _, e := range r.entries {
				outputs["out/"+e] = map[string]string{"entryPoint": e}
			}
			meta, _ := json.MarshalIndent(map[string]any{"inputs": inputs, "outputs": outputs}, "", "  ")
			lazy, mixed := lazyStyles(string(meta), !r.scoped)
			if got := slices.Sorted(maps.Keys(lazy)); !slices.Equal(got, r.lazy) || mixed != r.mixed {
				t.Errorf("got %q mixed %v, want %q mixed %v", got, mixed, r.lazy, r.mixed)
			}
		})
	}
}

// TestLazyChunks reads the chunks of the lazy stylesheets from a metafile as Vite's build
// links them: one per set of dynamically imported modules that reach a stylesheet, its files
// in their order of evaluation, and for each lazily loaded module the chunks Vite links for
// its chunk (its own, then the chunks of CSS only its modules import).
func TestLazyChunks(t *testing.T) {
	rows := []struct {
		name    string
		imports []string // "from kind to"
		chunks  string   // each chunk's files, chunks split by "|"
		links   string   // "module=i,j" for each lazily loaded module, sorted
	}{
		{"one chunk, two files", []string{"main.js dynamic-import a.js", "a.js import-statement x.css", "a.js import-statement y.css"}, "x.css y.css", "a.js=0"},
		{"evaluation order", []string{"main.js dynamic-import a.js", "a.js import-statement b.js", "a.js import-statement x.css", "b.js import-statement y.css"}, "y.css x.css", "a.js=0 b.js=0"},
		{"shared, imported after the own", []string{"main.js dynamic-import a.js", "main.js dynamic-import b.js", "a.js import-statement own.css", "a.js import-statement shared.css", "b.js import-statement shared.css"}, "own.css|shared.css", "a.js=0,1 b.js=1"},
		{"shared, imported before the own", []string{"main.js dynamic-import a.js", "main.js dynamic-import b.js", "a.js import-statement shared.css", "a.js import-statement own.css", "b.js import-statement shared.css"}, "shared.css|own.css", "a.js=1,0 b.js=0"},
		{"a shared module's stylesheet", []string{"main.js dynamic-import a.js", "main.js dynamic-import b.js", "a.js import-statement s.js", "b.js import-statement s.js", "s.js import-statement s.css", "a.js import-statement a.css"}, "s.css|a.css", "a.js=0,1 b.js=0 s.js=0"},
		// Found attacking (attack23b): Vite links the shared chunk's stylesheet before the
		// importing chunk's own, also where the module imports its own first.
		{"a shared module's stylesheet, after the own", []string{"main.js dynamic-import a.js", "main.js dynamic-import b.js", "a.js import-statement a.css", "a.js import-statement s.js", "b.js import-statement s.js", "s.js import-statement s.css"}, "a.css|s.css", "a.js=1,0 b.js=1 s.js=1"},
		{"through the style stubs", []string{"main.js dynamic-import a.js", "main.js dynamic-import b.js", "a.js import-statement miniapp-style:shared.css", "a.js import-statement miniapp-style:own.css", "b.js import-statement miniapp-style:shared.css",
			"miniapp-style:shared.css import-statement shared.css", "miniapp-style:own.css import-statement own.css"}, "shared.css|own.css", "a.js=1,0 b.js=0"},
		{"composed CSS Module", []string{"main.js dynamic-import a.js", "a.js import-statement b.module.css", "b.module.css composes-from c.module.css"}, "c.module.css b.module.css", "a.js=0"},
	}
	type imp struct {
		Path string `json:"path"`
		Kind string `json:"kind"`
	}
	type input struct {
		Imports []imp `json:"imports"`
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			inputs := map[string]*input{}
			for _, s := range r.imports {
				f := strings.Fields(s)
				for _, p := range []string{f[0], f[2]} {
					if inputs[p] == nil {
						inputs[p] = &input{Imports: []imp{}}
					}
				}
				inputs[f[0]].Imports = append(inputs[f[0]].Imports, imp{f[2], f[1]})
			}
			meta, _ := json.Marshal(map[string]any{"inputs": inputs, "outputs": map[string]any{"out/main.js": map[string]string{"entryPoint": "main.js"}}})
			lazy, _ := lazyStyles(string(meta), true)
			c := lazyChunks(string(meta), lazy)
			var chunks, links []string
			for _, ch := range c.chunks {
				chunks = append(chunks, strings.Join(ch, " "))
			}
			for _, m := range slices.Sorted(maps.Keys(c.links)) {
				var l []string
				for _, i := range c.links[m] {
					l = append(l, strconv.Itoa(i))
				}
				links = append(links, m+"="+strings.Join(l, ","))
			}
			if got := strings.Join(chunks, "|"); got != r.chunks {
				t.Errorf("chunks %q, want %q", got, r.chunks)
			}
			if got := strings.Join(links, " "); got != r.links {
				t.Errorf("links %q, want %q", got, r.links)
			}
		})
	}
}
