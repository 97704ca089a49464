package pipeline

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/miniapp/bundle/diag"
)

// What a vite.config asks that bundle does not do is said in a warning at the config, with
// what the page may miss: the plugins it lists that bundle does not run, and the parts of
// css.modules it does not apply.

// knownPlugins says, for the plugins bundle does not run that it knows, what a page built by
// bundle may miss, by the name the plugin gives itself (a prefix for families).
var knownPlugins = []struct{ prefix, what string }{
	{"vite:react-babel", "@vitejs/plugin-react's Babel transforms (its babel options, the React Compiler): bundle compiles JSX with esbuild and React's automatic runtime"},
	{"vite:react-refresh", "fast refresh, a dev server's"},
	{"vite:react", "@vitejs/plugin-react: bundle compiles JSX with esbuild and React's automatic runtime"},
	{"vite:react-swc", "@vitejs/plugin-react-swc's SWC plugins: bundle compiles JSX with esbuild and React's automatic runtime"},
	{"vite:singlefile", "nothing: a bundle is one file already"},
	{"vite-plugin-pwa", "its service worker and web app manifest: a bundle registers neither, and the host's frame would not keep them"},
	{"vite:legacy", "the legacy browsers' build: bundle writes one page for build.target"},
	{"vite-plugin-svgr", "SVG files as React components (import X from './x.svg?react' is refused)"},
	{"vite-tsconfig-paths", "nothing: bundle follows tsconfig paths itself"},
}

// handledPlugins are plugins whose work bundle does itself, another way: no warning. The
// frameworks' (frameworks.go): @vitejs/plugin-vue (vite:vue), @sveltejs/vite-plugin-svelte
// (vite-plugin-svelte, vite-plugin-svelte:*), vite-plugin-solid (solid).
var handledPlugins = []string{"@tailwindcss/vite", "vite:vue", "vite-plugin-svelte", "solid"}

// pluginWarning is the one warning that names the plugins of the config bundle does not run,
// with what the page may miss; nil when there are none.
func (c *viteConfig) pluginWarning() *diag.Message {
	if c == nil {
		return nil
	}
	var lines []string
	seen := map[string]bool{}
	for _, p := range c.Plugins {
		if p.Apply == "serve" || seen[p.Name] {
			continue
		}
		seen[p.Name] = true
		handled := false
		for _, h := range handledPlugins {
			handled = handled || strings.HasPrefix(p.Name, h)
		}
		if handled {
			continue
		}
		what := ""
		for _, k := range knownPlugins {
			if strings.HasPrefix(p.Name, k.prefix) {
				what = k.what
				break
			}
		}
		if what == "" {
			hooks := slicesFilter(p.Hooks, func(h string) bool {
				return map[string]bool{"resolveId": true, "load": true, "transform": true, "transformIndexHtml": true, "renderChunk": true,
					"generateBundle": true, "writeBundle": true, "closeBundle": true, "buildStart": true, "buildEnd": true}[h]
			})
			if len(hooks) == 0 {
				continue // it changes nothing a build makes (config hooks, a dev server's)
			}
			sort.Strings(hooks)
			what = "what its " + strings.Join(hooks, ", ") + " do"
		}
		lines = append(lines, strconv.Quote(p.Name)+": "+what)
	}
	if len(lines) == 0 {
		return nil
	}
	noun := "plugin"
	if len(lines) > 1 {
		noun = "plugins"
	}
	return &diag.Message{Severity: diag.Warning, File: filepath.ToSlash(c.File),
		Text: fmt.Sprintf("bundle does not run the config's %s %s", noun, strings.Join(lines, "; ")),
		Note: "the page may miss what they do; if it needs it, build with Vite (vite-plugin-singlefile makes one file) and run bundle check on the page"}
}

// cssModulesWarning names what the config's css.modules asks that a build of the app's CSS
// Modules (esbuild's local-css: class names File_name, exported as written) does not do,
// with what the page may miss; nil when the config asks nothing of it or the build holds no
// CSS Module (inputs, the build's).
func (c *viteConfig) cssModulesWarning(inputs map[string]int) *diag.Message {
	if c == nil || c.CSSModules == nil {
		return nil
	}
	used := false
	for in := range inputs {
		used = used || isCSSModule(in)
	}
	if !used {
		return nil
	}
	m := c.CSSModules
	var lines []string
	switch {
	case m.LocalsConvention == "", m.LocalsConvention == "none", localsConventions[m.LocalsConvention]:
	default:
		conv := strconv.Quote(m.LocalsConvention)
		if m.LocalsConvention == "(a function)" {
			conv = "as a function"
		}
		lines = append(lines, fmt.Sprintf("localsConvention %s (a class is exported by its name as written: styles.fooBar is undefined for .foo-bar; write styles[\"foo-bar\"])", conv))
	}
	if m.ScopeBehaviourAll {
		lines = append(lines, `scopeBehaviour "global" (a module's classes are scoped to it all the same: mark them :global(…))`)
	}
	if len(lines) == 0 {
		return nil
	}
	return &diag.Message{Severity: diag.Warning, File: filepath.ToSlash(c.File),
		Text: "bundle does not apply the config's css.modules " + strings.Join(lines, "; "),
		Note: "CSS Modules are esbuild's in a bundle: class names File_name, exported as written"}
}

func slicesFilter(s []string, keep func(string) bool) []string {
	var out []string
	for _, x := range s {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}
