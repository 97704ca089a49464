package pipeline

import (
	"encoding/json"
	"maps"
	"slices"
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
