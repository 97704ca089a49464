package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/internal/rootpath"
	"github.com/miniapp/bundle/pipeline/internal/nodetool"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
)

// postcssConfigs are the PostCSS config files looked for, in the app folder and then its
// parents up to the folder the build may read, as postcss-load-config finds them: its
// searchPlaces after package.json, in its order (lilconfig takes the first there is in a
// folder). The YAML and TypeScript ones are found to be refused (bundle reads no YAML and
// loads no TypeScript config): a config that is there is never passed over.
var postcssConfigs = []string{".postcssrc", ".postcssrc.json", ".postcssrc.yaml", ".postcssrc.yml",
	".postcssrc.ts", ".postcssrc.cts", ".postcssrc.mts", ".postcssrc.js", ".postcssrc.cjs", ".postcssrc.mjs",
	"postcss.config.ts", "postcss.config.cts", "postcss.config.mts", "postcss.config.js", "postcss.config.cjs", "postcss.config.mjs"}

// importsTailwind reports whether the stylesheet src enters Tailwind CSS, as its tokens say:
// v4's @import of "tailwindcss" or one of its parts (a string or a url()), or v3's @tailwind
// base, components or utilities. The words in a comment, a string or a selector are not an
// entry. The at-rules' names are matched as Tailwind's compiler matches them, case and all.
func importsTailwind(src string) bool {
	if !strings.Contains(src, "tailwind") {
		return false
	}
	l := css.NewLexer(parse.NewInputString(src))
	next := func() (css.TokenType, string) {
		for {
			tt, d := l.Next()
			if tt != css.WhitespaceToken && tt != css.CommentToken {
				return tt, string(d)
			}
		}
	}
	for {
		tt, d := next()
		switch {
		case tt == css.ErrorToken:
			return false
		case tt == css.AtKeywordToken && d == "@import":
			var spec string
			switch tt, d = next(); tt {
			case css.StringToken: // its quotes; one left open at the end has no closing one
				spec = strings.TrimSuffix(d[1:], d[:1])
			case css.URLToken:
				spec = strings.TrimSuffix(d[strings.IndexByte(d, '(')+1:], ")")
				spec = strings.Trim(strings.TrimSpace(spec), `"'`)
			}
			if spec == "tailwindcss" || strings.HasPrefix(spec, "tailwindcss/") {
				return true
			}
		case tt == css.AtKeywordToken && d == "@tailwind":
			if tt, d = next(); tt == css.IdentToken && (d == "base" || d == "components" || d == "utilities") {
				return true
			}
		}
	}
}

// cssTools runs the app's own npm CSS tools on the stylesheets esbuild loads: Sass for .scss
// and .sass, Less for .less, Stylus for .styl and .stylus (as Vite compiles them when the app
// installs the package), then PostCSS when the app has a PostCSS config, or else Tailwind CSS's compiler
// when a stylesheet imports it. It is safe for concurrent use (esbuild loads files in
// parallel).
type cssTools struct {
	root, readRoot, outDir string

	once   sync.Once
	config string // the PostCSS config, "" for none
	// configOutside is a PostCSS config that a link leads out of the root: never loaded,
	// refused at the first stylesheet.
	configOutside string
	runner        *nodetool.Runner
	// preprocessorOptions is the vite.config's css.preprocessorOptions by language (scss,
	// sass, less, styl, stylus), read from viteFile; nil without one.
	preprocessorOptions map[string]map[string]json.RawMessage
	viteFile            string
	aliases             []nodetool.Alias // its resolve.alias, for Sass's and Less's imports
	// pathAliases are the app tsconfig's paths, which Vite's Sass resolver applies too (its
	// Less one does not): set by each build.
	pathAliases []nodetool.Alias
}

// toolTimeout bounds each request of the app's Node (nodetool.Runner.Timeout): a stylesheet's
// tool or a component's compile that never answers (a PostCSS plugin whose promise never
// settles, a Less plugin or a Sass function in a loop, a compiler that loops) is an error at
// the file, Node is killed and the next file starts it again. A stylesheet or a component
// takes well under a second; the first, which loads Tailwind's or Vue's compiler, 1 to 3 s
// on a quiet machine and over 10 s on a two-core one 20 processes kept busy (a vite.config's
// load took over 60 s there): the bound is far above what a request that ends takes.
var toolTimeout = 5 * time.Minute

// newCSSTools prepares the CSS tools of the app in root, which may read readRoot, never
// outDir, and keep temporary files under temp ("" for the system's); noFence leaves Node
// outside the kernel's fence, noNode starts none (Options.NoNode).
func newCSSTools(root, readRoot, outDir, temp string, noFence, noNode bool) *cssTools {
	r := nodetool.New(root, readRoot, temp)
	r.NoFence, r.NoNode, r.Timeout = noFence, noNode, toolTimeout
	return &cssTools{root: root, readRoot: readRoot, outDir: outDir, runner: r}
}

func (c *cssTools) postcssConfig() string {
	c.once.Do(func() { c.config, c.configOutside = findPostcssConfig(c.root, c.readRoot) })
	return c.config
}

// findPostcssConfig returns the PostCSS config of the app in root, which reads readRoot, as
// postcss-load-config finds it from root up to readRoot: config, or outside where the first
// found is a symbolic link that leads out of readRoot (never loaded); "" and "" for none.
func findPostcssConfig(root, readRoot string) (config, outside string) {
	for dir := root; ; dir = filepath.Dir(dir) {
		// postcss-load-config looks at package.json first: its "postcss" key, when there
		// is one, is the config (the JSON form); one without the key is passed over.
		if pj := filepath.Join(dir, "package.json"); hasPostcssKey(pj, readRoot) {
			return pj, ""
		}
		for _, name := range postcssConfigs {
			p := filepath.Join(dir, name)
			if st, err := os.Lstat(p); err == nil && !st.IsDir() {
				if real, err := filepath.EvalSymlinks(p); err != nil || !within(real, readRoot) {
					return "", p
				}
				return p, ""
			}
		}
		if dir == readRoot || filepath.Dir(dir) == dir || !strings.HasPrefix(dir, readRoot) {
			return "", ""
		}
	}
}

// hasPostcssKey reports whether the package.json at p, inside root, has a "postcss" key,
// which postcss-load-config reads as the PostCSS config. One that is not JSON has none here:
// the build says so where it reads the package's fields.
func hasPostcssKey(p, root string) bool {
	data, err := readIn(p, root)
	if err != nil {
		return false
	}
	var pj map[string]json.RawMessage
	if json.Unmarshal(data, &pj) != nil {
		return false
	}
	// lilconfig passes over a key that is null, as one that is not there.
	v, ok := pj["postcss"]
	return ok && string(v) != "null"
}

// close stops Node, if it ran.
func (c *cssTools) close() { c.runner.Close() }

// needed reports whether a stylesheet at path with the source src goes through a tool.
func (c *cssTools) needed(path string, src []byte) bool {
	return preprocessor(path) != "" || c.postcssConfig() != "" || c.configOutside != "" || importsTailwind(string(src))
}

// preprocessor returns the npm package (and the runner's tool) that compiles a stylesheet of
// the language its extension says to CSS, as Vite's CSS plugin picks it; "" for CSS.
func preprocessor(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".scss", ".sass":
		return "sass"
	case ".less":
		return "less"
	case ".styl", ".stylus":
		return "stylus"
	}
	return ""
}

// isStylesheet reports whether a file is CSS or a language a preprocessor compiles to it.
func isStylesheet(path string) bool {
	return strings.EqualFold(filepath.Ext(path), ".css") || preprocessor(path) != ""
}

// preprocessorNames are the tools' names in messages.
var preprocessorNames = map[string]string{"sass": "Sass", "less": "Less", "stylus": "Stylus"}

// process runs the tools a stylesheet needs and returns its CSS, or esbuild messages at the
// stylesheet's place that say what failed and what to do.
func (c *cssTools) process(ctx context.Context, path string, src []byte) (string, []api.Message) {
	css, _, errs := c.processMap(ctx, path, src)
	return css, errs
}

// processMap is process with the source map of the CSS to the files it was compiled from, where
// the preprocessor gives one (Sass) and no tool changed its output after: "" otherwise.
func (c *cssTools) processMap(ctx context.Context, path string, src []byte) (string, string, []api.Message) {
	r := c.runner
	css := string(src)
	var err error
	var sourceMap string
	if pre := preprocessor(path); pre != "" {
		opts, msg := c.options(path)
		if msg != nil {
			return "", "", []api.Message{*msg}
		}
		if css, sourceMap, err = r.RunMap(ctx, nodetool.Request{Tool: pre, File: path, Options: opts, Aliases: c.importAliases(pre), Map: pre == "sass"}); err != nil {
			return "", "", c.failure(path, preprocessorNames[pre], pre, err)
		}
	}
	compiled := css
	css, errs := c.postprocess(ctx, path, css)
	if css != compiled {
		sourceMap = ""
	}
	return css, sourceMap, errs
}

// postprocess runs the app's PostCSS config, or Tailwind CSS, on css.
func (c *cssTools) postprocess(ctx context.Context, path, css string) (string, []api.Message) {
	r := c.runner
	var err error
	switch config := c.postcssConfig(); {
	case c.configOutside != "":
		return "", []api.Message{{Text: fmt.Sprintf("%s is a symbolic link to a file outside the folder bundle reads", filepath.Base(c.configOutside)),
			Location: &api.Location{File: c.configOutside}, Notes: []api.Note{{Text: "copy the config into the app folder instead of linking to it: bundle runs no code from outside it"}}}}
	case slices.Contains([]string{".ts", ".cts", ".mts"}, filepath.Ext(config)):
		return "", []api.Message{{Text: fmt.Sprintf("%s is TypeScript, which bundle does not load", filepath.Base(config)),
			Location: &api.Location{File: config}, Notes: []api.Note{{Text: "write the same config as postcss.config.mjs"}}}}
	case filepath.Ext(config) == ".yaml" || filepath.Ext(config) == ".yml" || filepath.Base(config) == ".postcssrc":
		return "", []api.Message{{Text: fmt.Sprintf("%s is read as YAML by PostCSS's loader, which bundle does not read", filepath.Base(config)),
			Location: &api.Location{File: config}, Notes: []api.Note{{Text: "write the same config as .postcssrc.json (plugins named as keys) or postcss.config.mjs"}}}}
	case config != "":
		if css, err = r.Run(ctx, nodetool.Request{Tool: "postcss", File: path, CSS: css, Config: config}); err != nil {
			return "", c.failure(path, "PostCSS (from "+filepath.Base(config)+")", "postcss", err)
		}
	case importsTailwind(css):
		if css, err = r.Run(ctx, nodetool.Request{Tool: "tailwind", File: path, CSS: css, Base: c.root, Ignore: []string{c.outDir}}); err != nil {
			return "", c.failure(path, "Tailwind CSS", "tailwindcss @tailwindcss/postcss", err)
		}
	}
	return css, nil
}

// importAliases are the aliases a preprocessor's imports go through: the config's, then for
// Sass the tsconfig's paths.
func (c *cssTools) importAliases(pre string) []nodetool.Alias {
	if pre != "sass" {
		return c.aliases
	}
	return append(slices.Clip(c.aliases), c.pathAliases...)
}

// pathAliases renders a tsconfig's paths as aliases for the runner: a key's * as a regular
// expression's group, its first target the replacement.
func pathAliases(paths []tsPath) []nodetool.Alias {
	var out []nodetool.Alias
	for _, t := range paths {
		pre, suf, wild := strings.Cut(t.key, "*")
		to := strings.ReplaceAll(filepath.FromSlash(t.targets[0]), "$", "$$")
		if !wild {
			out = append(out, nodetool.Alias{Regex: "^" + regexp.QuoteMeta(t.key) + "$", Replacement: to})
			continue
		}
		out = append(out, nodetool.Alias{Regex: "^" + regexp.QuoteMeta(pre) + "(.*)" + regexp.QuoteMeta(suf) + "$", Replacement: strings.Replace(to, "*", "$1", 1)})
	}
	return out
}

// options returns the config's css.preprocessorOptions for the language of the stylesheet at
// path, as JSON for the runner (nil for none), as Vite passes them to the compiler
// (additionalData, which it prepends, included). A value bundle cannot pass, a function
// (additionalData as a function, a Sass importer, a Less plugin) or a regular expression, is
// an error at the config that names it: bundle runs none of the config's code at build
// time. Sass's logger, which only hears warnings, is left out.
func (c *cssTools) options(path string) (json.RawMessage, *api.Message) {
	lang := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	raw := c.preprocessorOptions[lang]
	if len(raw) == 0 {
		return nil, nil
	}
	out := map[string]any{}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var v any
		if err := json.Unmarshal(raw[k], &v); err != nil {
			continue
		}
		top := v
		v, bad := plainValue(v)
		switch {
		case bad == "" && v != nil && (lang == "scss" || lang == "sass") && (k == "loadPaths" || k == "includePaths"):
			paths, msg := c.loadPaths(lang, k, v)
			if msg != nil {
				return nil, msg
			}
			out[k] = paths
		case bad == "" && v != nil:
			out[k] = v
		case bad == "function" && k == "logger" && (lang == "scss" || lang == "sass"):
		case bad == "undefined":
		case bad != "":
			what := map[string]string{"function": "a function", "regex": "a regular expression", "unreadable": "a value JSON cannot hold"}[bad]
			if marker(top) != "" {
				what = "is " + what
			} else {
				what = "holds " + what
			}
			fix := "write it as a string: Vite prepends it to each " + lang + " stylesheet"
			if k != "additionalData" {
				fix = "remove it, or do what it does in the stylesheets themselves"
			}
			why := "which bundle does not call: it runs none of the config's code when it builds"
			if bad != "function" {
				why = "which bundle cannot pass to the compiler: the config's values reach it as JSON"
			}
			return nil, &api.Message{Text: fmt.Sprintf("css.preprocessorOptions.%s.%s in %s %s, %s", lang, k, filepath.Base(c.viteFile), what, why),
				Location: &api.Location{File: c.viteFile}, Notes: []api.Note{{Text: fix}}}
		}
	}
	if inc, ok := out["includePaths"].([]string); ok {
		// The legacy API's includePaths: Sass's modern API, which bundle runs, names them
		// loadPaths, and looks there after them.
		lp, _ := out["loadPaths"].([]string)
		out["loadPaths"] = append(lp, inc...)
		delete(out, "includePaths")
	}
	b, _ := json.Marshal(out)
	return b, nil
}

// loadPaths returns Sass's load paths (loadPaths, or the legacy API's includePaths, key) as
// absolute folders: a relative one is relative to the app folder, as Vite's process (whose
// working folder is the root) gives it to Sass. A load path that leaves the folder the build
// may read, links followed, is an error at the config naming it: Sass would look for every
// @use there.
func (c *cssTools) loadPaths(lang, key string, v any) ([]string, *api.Message) {
	at := func(text, note string) *api.Message {
		return &api.Message{Text: fmt.Sprintf("css.preprocessorOptions.%s.%s in %s %s", lang, key, filepath.Base(c.viteFile), text),
			Location: &api.Location{File: c.viteFile}, Notes: []api.Note{{Text: note}}}
	}
	list, ok := v.([]any)
	if !ok {
		return nil, at("is not a list of folders", fmt.Sprintf(`write it as a list: %s: ["src/styles"]`, key))
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		p, ok := e.(string)
		if !ok || p == "" {
			j, _ := json.Marshal(e)
			return nil, at(fmt.Sprintf("holds %s, which is not a folder's path", j), fmt.Sprintf(`write each as a path (a string): %s: ["src/styles"]`, key))
		}
		abs := filepath.FromSlash(p)
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(c.root, abs)
		}
		abs = filepath.Clean(abs)
		// Lexically, then (what exists of it) with its links resolved.
		inside := abs == c.readRoot || strings.HasPrefix(abs, c.readRoot+string(filepath.Separator))
		for d := abs; inside; d = filepath.Dir(d) {
			if _, err := os.Lstat(d); err == nil {
				inside = within(d, c.readRoot)
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
		if !inside {
			return nil, &api.Message{Text: fmt.Sprintf("css.preprocessorOptions.%s.%s %q in %s names %s, outside %s, where bundle does not let Sass read", lang, key, p, filepath.Base(c.viteFile), abs, c.readRoot),
				Location: &api.Location{File: c.viteFile}, Notes: []api.Note{{Text: "name a folder inside the app folder (relative to it), and move the stylesheets it holds in"}}}
		}
		out = append(out, abs)
	}
	return out, nil
}

// plainValue returns v, as the runner described a config's value, with what JSON cannot
// hold left out of objects and arrays; at the top, bad names what it is (function, regex,
// unreadable, undefined).
func plainValue(v any) (any, string) {
	if m := marker(v); m != "" {
		return nil, m
	}
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			e, bad := plainValue(e)
			if bad == "undefined" {
				continue
			}
			if bad != "" {
				return nil, bad
			}
			out[k] = e
		}
		return out, ""
	case []any:
		out := make([]any, 0, len(x))
		for _, e := range x {
			e, bad := plainValue(e)
			if bad != "" {
				return nil, bad
			}
			out = append(out, e)
		}
		return out, ""
	}
	return v, ""
}

// marker returns what the runner's description of a value says it was, when JSON could not
// hold it: {function: name}, {regex, flags}, {unreadable: true}, {undefined: true}.
func marker(v any) string {
	x, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	for _, mark := range []string{"function", "regex", "unreadable", "undefined"} {
		if _, ok := x[mark]; ok && (len(x) == 1 || mark == "regex" && len(x) == 2) {
			return mark
		}
	}
	return ""
}

// noKernelWhy says why the kernel's fence is not around the tools' Node: turned off
// (Options.NoFence, which BUNDLE_FENCE=off sets), else the kernel has no Landlock.
func (c *cssTools) noKernelWhy() string {
	if c.runner.NoFence {
		return "BUNDLE_FENCE=off, Options.NoFence"
	}
	return "this kernel has no Landlock"
}

// dartSassSpawn reports whether a Sass error is Node's refusal to start sass-embedded's Dart
// compiler ("spawn …/sass-embedded-linux-x64/dart-sass/src/dart EACCES").
func dartSassSpawn(msg string) bool {
	f := strings.Fields(msg)
	return len(f) == 3 && f[0] == "spawn" && f[2] == "EACCES" && strings.Contains(filepath.ToSlash(f[1]), "/sass-embedded-") && strings.HasSuffix(filepath.ToSlash(f[1]), "/dart-sass/src/dart")
}

// failure turns a tool's error into a message at the stylesheet, with the fix.
func (c *cssTools) failure(path, tool, packages string, err error) []api.Message {
	var me *nodetool.MissingError
	var te *nodetool.ToolError
	var to *nodetool.TimeoutError
	var se *nodetool.StoppedError
	m := api.Message{Location: &api.Location{File: path}}
	switch {
	case errors.As(err, &to):
		// No answer: Node was killed, with what it was running. The tool's package and its
		// version are named; what waits or loops is the app's code it runs, or the tool.
		pkg := strings.Fields(packages)[0]
		if pkg == "tailwindcss" {
			pkg = "@tailwindcss/node" // what the runner runs of Tailwind's
		}
		running := pkg
		if v := installedVersion(c.root, c.readRoot, pkg); v != "" {
			running += " " + v
		}
		m.Text = fmt.Sprintf("%s (%s) did not finish %s in %v", tool, running, filepath.Base(path), to.After)
		m.Notes = []api.Note{{Text: timeoutFix[to.Tool]}}
		if r := to.Running; r != nil {
			// The runner said which at-rule's code it ran (a Less or Tailwind @plugin's, a
			// Tailwind @config's: Rule "" is either): the error is at that rule, where the
			// stylesheet writes it.
			rules := []string{r.Rule}
			if r.Rule == "" {
				rules = []string{"@plugin", "@config"}
			}
			m.Text = fmt.Sprintf("%s (%s) did not finish %s in %v: the code of %q did not return", tool, running, filepath.Base(path), to.After, r.Spec)
			for _, rule := range rules {
				if line, col, text := atRulePlace(path, rule, r.Spec, c.readRoot); line > 0 {
					m.Location.Line, m.Location.Column, m.Location.LineText = line, col, text
					m.Text = fmt.Sprintf("%s (%s) did not finish %s in %v: the code of %s %q did not return", tool, running, filepath.Base(path), to.After, rule, r.Spec)
					break
				}
			}
		}
	case errors.As(err, &se) && se.Killed:
		m.Text = fmt.Sprintf("%s was stopped before it finished %s: another file's CSS tool or compile did not finish in %v", tool, filepath.Base(path), c.runner.Timeout)
		m.Notes = []api.Note{{Text: "that file's error says what to do"}}
	case errors.Is(err, nodetool.ErrNoNode):
		m.Text = fmt.Sprintf("%s runs on Node.js, which is not on PATH", tool)
		m.Notes = []api.Note{{Text: "install Node.js 18 or later; bundle runs the app's own installed tools with it"}}
	case errors.As(err, &me):
		if me.Package == "" {
			// No node_modules at all: the tool's own package is the one to name.
			me = &nodetool.MissingError{Package: strings.Fields(packages)[0]}
		}
		m.Text = fmt.Sprintf("%s needs the npm package %s, which is not installed in the app", tool, me.Package)
		add := packageManager(c.root, c.readRoot)
		switch {
		case me.Package == "@tailwindcss/node" || me.Package == "@tailwindcss/oxide" || me.Package == "tailwindcss":
			m.Notes = []api.Note{{Text: add + " " + tailwindPackages(c.root, c.readRoot)}}
		case slices.Contains(strings.Fields(packages), me.Package):
			// The tool's own package: its name is bundle's, not the author's (Tailwind's and
			// Sass's named with the packages they go with).
			if tool != "Tailwind CSS" && tool != "Sass" {
				packages = me.Package
			}
			m.Notes = []api.Note{{Text: add + " " + packages}}
		default:
			// A name the app's config or stylesheet wrote (a PostCSS plugin, a Tailwind
			// @plugin, a Sass pkg: URL): a typo of an installed one is not a package to
			// install, nor is a name far from every one.
			m.Notes = []api.Note{{Text: namedPackageAdvice(filepath.Dir(path), c.readRoot, me.Package, add)}}
			if me.Spec != "" {
				// Tailwind's resolver (its own, or inside @tailwindcss/postcss) asked for it:
				// the place is the at-rule that names it.
				m.Text = fmt.Sprintf("Tailwind CSS: the npm package %s is not installed in the app", me.Package)
				for _, rule := range []string{"@plugin", "@config", "@import", "@reference"} {
					if line, col, text := atRulePlace(path, rule, me.Spec, c.readRoot); line > 0 {
						m.Location.Line, m.Location.Column, m.Location.LineText = line, col, text
						m.Text = fmt.Sprintf("Tailwind CSS: %s %q names the npm package %s, which is not installed in the app", rule, me.Spec, me.Package)
						break
					}
				}
			}
		}
		if pnp := yarnPnP(c.root, c.readRoot); pnp != "" {
			// Yarn's Plug'n'Play keeps packages in zip archives that only its loader reads.
			m.Text = fmt.Sprintf("%s needs the npm package %s, and the app installs its packages with Yarn Plug'n'Play (%s), whose archives Node cannot load without Yarn's loader", tool, me.Package, filepath.Base(pnp))
			m.Notes = []api.Note{{Text: "install them into node_modules: set nodeLinker: node-modules in .yarnrc.yml and run yarn install"}}
		}
	case errors.As(err, &te) && tool == "Sass" && c.runner != nil && c.runner.Fence().ABI > 0 && dartSassSpawn(te.Message):
		// sass-embedded's compiler is a native Dart program that Node starts from the app's
		// node_modules. The kernel's fence refuses to run it (no file there may run), and
		// would have to: the Dart VM reads its own /proc/self/maps to start, and Landlock
		// cannot grant a process that without every process's /proc (their command lines, the
		// machine's sockets).
		m.Text = "Sass: sass-embedded's compiler (a native program in node_modules) cannot run inside the kernel's fence"
		m.Notes = []api.Note{{Text: "install the sass package (" + packageManager(c.root, c.readRoot) + " sass), which bundle runs inside the fence and takes over sass-embedded, or build with " +
			"BUNDLE_FENCE=off, where the path checks hold (Landlock cannot let the Dart VM read its own /proc/self/maps, which it needs to start, without letting it read every process's)"}}
	case errors.As(err, &te) && te.KernelOnly == "sass-embedded":
		// Outside the kernel's fence Node's permission model holds the app's Node code, and
		// a program it starts holds nothing of it: the right to start sass-embedded's
		// compiler would be the PostCSS config's too, in the same process.
		m.Text = fmt.Sprintf("Sass: sass-embedded's compiler is a native program, which Node's permission model does not hold, and the kernel's fence is off (%s): bundle does not run it", c.noKernelWhy())
		m.Notes = []api.Note{{Text: "install the sass package (" + packageManager(c.root, c.readRoot) + " sass), which bundle runs under its path checks and Node's permission model, and which it takes over sass-embedded"}}
	case errors.As(err, &te) && te.Denied == "addon-load" && c.runner != nil:
		// A package the config or a plugin loads whose addon's loader the kernel's fence refused.
		why, fix := addonLoadRefused(te.KernelOnly, c.runner.Fence())
		m.Text = fmt.Sprintf("%s: %s: %s", tool, te.Message, why)
		m.Notes = []api.Note{{Text: fix}}
	case errors.As(err, &te) && te.KernelOnly != "":
		// An addon's function, which reads files in native code, called outside the
		// kernel's fence: the config or plugin that called it is the app's.
		m.Text = fmt.Sprintf("%s: %s", tool, te.Message)
		m.Notes = []api.Note{{Text: "the kernel's fence is off here (" + c.noKernelWhy() + "): " + kernelFix}}
	case errors.As(err, &te) && te.Outside != "":
		// Said at the stylesheet, with the file refused named and nothing of it shown.
		m.Text = fmt.Sprintf("%s: %s", tool, te.Message)
		if te.File != "" && within(te.File, c.readRoot) {
			m.Location.File, m.Location.Line, m.Location.Column = te.File, te.Line, max(te.Column-1, 0)
			m.Location.LineText = lineIn(te.File, te.Line, c.readRoot)
		}
		m.Notes = []api.Note{{Text: "keep every file the stylesheet uses inside the app folder (or its workspace root): bundle lets its CSS tools read nothing else"}}
	case errors.As(err, &te):
		m.Text = fmt.Sprintf("%s: %s", tool, te.Message)
		if te.File != "" {
			m.Location.File = te.File
		}
		if !within(m.Location.File, c.readRoot) {
			// A place outside the root: its lines are not shown, its name is enough.
			m.Text = fmt.Sprintf("%s refused %s, outside the folder bundle reads", tool, te.File)
			m.Location.File = path
			break
		}
		if te.Line > 0 {
			m.Location.Line = te.Line
			m.Location.Column = max(te.Column-1, 0)
			m.Location.LineText = lineIn(m.Location.File, te.Line, c.readRoot)
		}
	default:
		m.Text = fmt.Sprintf("%s failed: %v", tool, err)
	}
	return []api.Message{m}
}

// timeoutFix is, by the runner's tool, what to look at when a request never finished.
var timeoutFix = map[string]string{
	"postcss":  "a plugin the PostCSS config loads loops or awaits a promise that never settles (bundle waits for each plugin's promise, as PostCSS does): look at the config's plugins, remove them one at a time to find it, and fix it or install a release that works",
	"tailwind": "a plugin or config the stylesheet loads (@plugin, @config) loops or awaits what never comes: look at those files, or install a release of Tailwind CSS that works",
	"sass":     "a function, importer or @use'd module's code loops, or the compiler waits on what never comes: look at what the stylesheet loads, or install a release of sass that works",
	"less":     "a Less @plugin the stylesheet loads loops or waits on what never comes: look at the plugin's code (remove the @plugin to check), or install a release of less that works",
	"stylus":   "a Stylus plugin or function the stylesheet uses loops or waits on what never comes: look at it, or install a release of stylus that works",
}

// lineIn returns line n (1-based) of the file at p when p, its links resolved, is inside
// root: a message never shows a line of a file outside. "" otherwise, or when there is none.
func lineIn(p string, n int, root string) string {
	if !within(p, root) {
		return ""
	}
	b, err := os.ReadFile(p)
	if err != nil || n < 1 {
		return ""
	}
	lines := strings.Split(string(b), "\n")
	if n > len(lines) {
		return ""
	}
	return strings.TrimRight(lines[n-1], "\r")
}

// within reports whether p, its symbolic links resolved, is dir or inside it (dir's own are
// resolved already); a path that cannot be resolved is not. Nothing outside dir is looked at.
func within(p, dir string) bool {
	_, err := rootpath.Resolve(p, dir)
	return err == nil
}

// atRulePlace returns the place of the first at-rule named rule (as Tailwind's compiler
// matches it, case and all) whose string parameter is param in the stylesheet at path,
// inside root: its line (1-based), column (0-based, in bytes) and line. Zeros when there is
// none, as in a stylesheet another tool wrote.
func atRulePlace(path, rule, param, root string) (line, column int, lineText string) {
	src, err := readIn(path, root)
	if err != nil || param == "" {
		return 0, 0, ""
	}
	l := css.NewLexer(parse.NewInput(bytes.NewReader(src)))
	offset := 0
	next := func() (css.TokenType, string, int) {
		for {
			tt, d := l.Next()
			at := offset
			offset += len(d)
			if tt != css.WhitespaceToken && tt != css.CommentToken {
				return tt, string(d), at
			}
		}
	}
	for {
		tt, d, at := next()
		if tt == css.ErrorToken {
			return 0, 0, ""
		}
		if tt != css.AtKeywordToken || d != rule {
			continue
		}
		if tt, d, _ = next(); tt == css.StringToken && strings.TrimSuffix(d[1:], d[:1]) == param {
			start := bytes.LastIndexByte(src[:at], '\n') + 1
			end := bytes.IndexByte(src[start:], '\n')
			if end < 0 {
				end = len(src) - start
			}
			return bytes.Count(src[:at], []byte("\n")) + 1, at - start, strings.TrimRight(string(src[start:start+end]), "\r")
		}
	}
}
