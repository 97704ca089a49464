package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/confine"
	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/internal/rootpath"
	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/pipeline/internal/nodetool"
	"github.com/tdewolff/parse/v2/js"
)

// A Vite app's vite.config is read as Vite's loadConfigFromFile reads it: bundled to one ES
// module with esbuild (its packages left to import, import.meta.url, import.meta.dirname and
// __dirname those of each file), imported on Node inside the same fence as the CSS tools,
// called with Vite's build environment ({command: "build", mode: "production"}) when it
// exports a function. What a page built by bundle takes from it: resolve.alias (objects and
// arrays, a regular expression's find), resolve.extensions, mainFields and conditions,
// define (and environments.client.define), envPrefix, envDir, base (import.meta.env.BASE_URL),
// publicDir, root, assetsInclude, css.preprocessorOptions (the CSS tools', with the aliases:
// cssTools.options, nodeAliases), worker.format,
// build.target, esbuild.minifySyntax and legalComments, and the variables the config sets in
// process.env (which .env files expand). The manifest's [build] wins over it. Each plugin it
// lists that bundle does not run is named in one warning, with what the page may miss.

// viteConfigTimeout bounds the loading of a config: one that never settles (a top-level await
// of a promise nothing resolves, a loop) is an error, not a build that never ends. A config
// loads in 1 to 2 s on a quiet machine (Svelte's plugin the longest); it took over 20 s on
// a machine 30 processes kept busy, where a bound of 20 s failed a build that was only slow.
var viteConfigTimeout = 60 * time.Second

// viteConfig is what a build takes from a vite.config. Paths are absolute.
type viteConfig struct {
	File          string
	Root          string // the folder of index.html and of root-relative imports; "" for the app folder
	Base          string
	PublicDir     *string // "" when the config turns it off (publicDir: false)
	EnvPrefix     []string
	EnvDir        string
	Define        map[string]string
	Alias         []viteAlias
	Extensions    []string
	MainFields    []string
	Conditions    []string
	AssetsInclude []viteAsset
	CSSModules    *cssModulesConfig
	// Code is the config bundled to one module, which the CSS tools' Node process imports
	// to call its functions (css.modules.generateScopedName).
	Code          string
	Preprocessor  map[string]map[string]json.RawMessage // css.preprocessorOptions by language
	WorkerFormat  string
	Target        string
	MinifySyntax  *bool
	LegalComments string
	Plugins       []vitePlugin
	Env           map[string]string // what the config set in process.env
}

// viteAlias is one entry of resolve.alias: a string find matches the import or a prefix of
// it followed by "/"; a regular expression, as JavaScript's String.prototype.replace does.
type viteAlias struct {
	Find        string
	Regex       *regexp.Regexp
	Source      string // the regular expression as JavaScript writes it, and its flags
	Flags       string
	Replacement string
	Custom      bool // it has a customResolver, a function bundle does not call
}

// viteAsset is one pattern of assetsInclude: a glob (picomatch's) or a regular expression.
type viteAsset struct {
	Glob  string
	Regex *regexp.Regexp
}

// cssModulesConfig is css.modules: generateScopedName as a pattern ("[name]__[local]___[hash:base64:5]").
type cssModulesConfig struct {
	ScopedName        string
	ScopedNameIsFunc  bool
	LocalsConvention  string
	HashPrefix        string
	ScopeBehaviourAll bool // scopeBehaviour: "global"
}

// vitePlugin is a plugin of the config: its name and the hooks it has.
type vitePlugin struct {
	Name  string   `json:"name"`
	Hooks []string `json:"hooks"`
	Apply string   `json:"apply"`
}

// findViteConfig returns the vite.config of the app folder dir, "" for none.
func findViteConfig(dir string) string {
	for _, name := range viteConfigFiles {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

// readViteConfig reads the vite.config of the app folder dir (nil, nil when it has none), on
// Node confined to readRoot with its temporary folder in temp (noNode: Options.NoNode).
func readViteConfig(ctx context.Context, dir, readRoot, readWhy, temp string, noFence, noNode bool) (*viteConfig, error) {
	file := findViteConfig(dir)
	if file == "" {
		return nil, nil
	}
	display := filepath.ToSlash(file)
	code, list := bundleViteConfig(file, readRoot, readWhy)
	if list.HasErrors() {
		return nil, list.Err()
	}
	r := nodetool.New(dir, readRoot, temp)
	r.NoFence, r.NoNode = noFence, noNode
	defer r.Kill()
	cctx, cancel := context.WithTimeout(ctx, viteConfigTimeout)
	defer cancel()
	out, err := r.Run(cctx, nodetool.Request{Tool: "viteconfig", File: file, CSS: code})
	var te *nodetool.ToolError
	var me *nodetool.MissingError
	switch {
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		return nil, diag.List{{File: display, Text: fmt.Sprintf("%s did not finish loading in %v", filepath.Base(file), viteConfigTimeout),
			Note: "a config that awaits a promise nothing settles, or loops, never gives Vite or bundle its options: make it return them"}}.Err()
	case errors.As(err, &me):
		note := namedPackageAdvice(dir, readRoot, me.Package, packageManager(dir, readRoot))
		return nil, diag.List{{File: display, Text: fmt.Sprintf("%s imports %s, which is not installed", filepath.Base(file), me.Package), Note: note}}.Err()
	case errors.As(err, &te):
		d := diag.Message{File: display, Text: fmt.Sprintf("%s threw: %s", filepath.Base(file), te.Message),
			Note: "fix the config (Vite would refuse it too, unless what failed is what bundle's fences refuse a config: a file outside " +
				filepath.ToSlash(readRoot) + ", a program, a worker, module hooks, a socket)"}
		fromStack := te.Line > 0 // the config's stack, not a place found in its source
		switch {
		case te.Denied == "hooks":
			// Not a fence's refusal: bundle runs no loader hooks of a config, with a fence or without.
			d.Text = fmt.Sprintf("%s threw: %s", filepath.Base(file), te.Message)
			d.Note = "bundle builds the page with its own loaders and runs no loader hooks a vite.config registers (Vite would run them): remove the call, or, if the build needs what the hooks do, build with Vite and check the page it writes (bundle check)"
		case te.Denied == "addon-load":
			// A package whose native addon does not load inside the kernel's fence: the loader
			// is refused what the fence keeps from the app's code, and granting it would let
			// the config read it too (@swc/core's, the mount table, names the builder's folders).
			why, fix := addonLoadRefused(te.KernelOnly, r.Fence())
			d.Text, d.Note = fmt.Sprintf("%s threw: %s: %s", filepath.Base(file), te.Message, why), fix
			if te.Line == 0 {
				if line, col, ok := importOf(file, te.KernelOnly, readRoot); ok {
					te.File, te.Line, te.Column = file, line, col
				}
			}
		case te.Refused != "":
			// Refused by a fence, which Vite does not put around the config.
			d.Note = refusalNote(te, readRoot, r.Fence())
		}
		if te.File != "" {
			d.File = filepath.ToSlash(te.File)
		}
		if te.Line > 0 {
			d.Line, d.Column = te.Line, te.Column
			if fromStack && te.Line == 1 && te.Column > len(injectedValues(te.File)) && !slices.Contains(strings.Split(te.File, string(filepath.Separator)), "node_modules") {
				// The stack's place on the first line counts what bundleViteConfig put before it
				// (a package's file, which Node loads as it is, has nothing put before it).
				d.Column -= len(injectedValues(te.File))
			}
			// The place is the config's stack, which the config writes: its line is shown only
			// from a file inside the root (links resolved), as every message's is.
			d.LineText = lineIn(te.File, te.Line, readRoot)
		}
		return nil, diag.List{d}.Err()
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", display, err)
	}
	cfg, err := parseViteConfig(file, dir, out)
	if cfg != nil {
		cfg.Code = code
	}
	return cfg, err
}

// addonLoadRefused says why pkg's native addon did not load (a ToolError's Denied
// "addon-load"): inside the kernel's fence, its loader was refused what the fence refuses the
// app's code, and granting it would let the app's code have it too; and the fix.
func addonLoadRefused(pkg string, kernel confine.Status) (why, fix string) {
	return pkg + "'s native addon does not load inside the kernel's fence (" + kernel.String() + "), which refuses its loader what it refuses the app's code",
		"bundle builds inside that fence and grants no more (@swc/core's loader reads the machine's mount table, /proc/self/mountinfo, which names the builder's folders): " +
			"do without " + pkg + " (for React, @vitejs/plugin-react instead of @vitejs/plugin-react-swc: bundle compiles JSX and TypeScript itself), or build with Vite and check the page it writes (bundle check)"
}

// kernelFix is the fix for native code the runner runs only inside the kernel's fence.
const kernelFix = "build inside the kernel's fence (on Linux with Landlock, without BUNDLE_FENCE=off), where it may run, or do without it"

// refusalNote says which fence refused what a vite.config tried (te.Refused), that Vite,
// which runs the config with none, would not have, and what the config may do instead.
func refusalNote(te *nodetool.ToolError, readRoot string, kernel confine.Status) string {
	who := "bundle's path checks"
	switch te.Refused {
	case nodetool.RefusedChecks:
		if te.Denied == "socket" || te.Denied == "addon" {
			who = "bundle's checks"
		}
	case nodetool.RefusedModel:
		who = "Node's permission model (bundle's fence where the kernel's is off)"
	case nodetool.RefusedKernel:
		who = "the kernel's fence (" + kernel.String() + ")"
	}
	root := filepath.ToSlash(readRoot)
	var rule string
	switch te.Denied {
	case "read":
		rule = "bundle lets a vite.config read only " + root + ": move what it reads into that folder"
	case "write":
		rule = "bundle lets a vite.config write only its temporary folder (os.tmpdir()): write there or nowhere"
	case "file":
		rule = "bundle lets a vite.config read only " + root + " and write only its temporary folder (os.tmpdir()): keep what it opens there"
	case "program":
		rule = "bundle lets a vite.config start no program: compute the value in the config's own code"
	case "worker":
		rule = "bundle lets a vite.config start no worker: do the work on the config's own thread"
	case "addon":
		rule = "bundle lets a vite.config call a native addon it does not confine (" + te.KernelOnly + "'s) only inside the kernel's fence: " + kernelFix
	case "socket":
		rule = "bundle lets a vite.config open no socket (no fetch): put the value in a file inside " + root + " or in .env"
	default:
		rule = "bundle lets a vite.config only read " + root + " and write its temporary folder: do without it"
	}
	return who + " refused it, not Vite, which runs the config with no fence: " + rule
}

// bundleViteConfig bundles the config file to one ES module, as Vite's bundleConfigFile does:
// the files it imports by path inside it, its packages left to Node; each file's
// import.meta.url, import.meta.dirname, import.meta.filename, __dirname and __filename its
// own; an inline source map, so that what it throws is placed in the file as written. The
// config's tsconfig is read as the page's is (the nearest inside the root, its extends inside
// the root) and given to esbuild, which then reads none itself; a message at a file outside the
// root (a package.json above it, which esbuild's resolver reads where no kernel fence keeps it
// out) loses its text and line, as the page's build's do.
func bundleViteConfig(file, readRoot, readWhy string) (string, diag.List) {
	dir := filepath.Dir(file)
	cb := &bundler{root: dir, readRoot: readRoot, readWhy: readWhy, dir: dir}
	tsconfigRaw, list := cb.tsconfigAt(cb.enclosingTsconfig(dir))
	if list.HasErrors() {
		return "", list
	}
	// Every file the config imports by path is bundled here, in this process, before Node runs
	// it: each is read only from inside the root, its links resolved, or refused where the
	// config imports it (a config that imported a JSON file beside the app put it in define).
	outside := func(p string) error {
		return fmt.Errorf("%s is outside %s, and a build reads nothing else, the config's imports included: move the file in", filepath.ToSlash(p), filepath.ToSlash(readRoot))
	}
	confined := api.Plugin{Name: "vite-config-confine", Setup: func(pb api.PluginBuild) {
		// A path that leaves the root is refused by its name, before esbuild looks for it
		// (which the kernel's fence would refuse with less to say).
		pb.OnResolve(api.OnResolveOptions{Filter: `^(\.|/)`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			p := a.Path
			if !filepath.IsAbs(p) {
				p = filepath.Join(a.ResolveDir, filepath.FromSlash(p))
			}
			if p = filepath.Clean(p); p != readRoot && !strings.HasPrefix(p, readRoot+string(filepath.Separator)) {
				return api.OnResolveResult{}, outside(p)
			}
			return api.OnResolveResult{}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			if a.Namespace != "file" || within(a.Path, readRoot) {
				return api.OnLoadResult{}, nil
			}
			return api.OnLoadResult{}, outside(a.Path)
		})
	}}
	inject := api.Plugin{Name: "vite-config-values", Setup: func(pb api.PluginBuild) {
		pb.OnLoad(api.OnLoadOptions{Filter: `\.[cm]?[jt]s$`}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			if strings.Contains(a.Path, string(filepath.Separator)+"node_modules"+string(filepath.Separator)) {
				return api.OnLoadResult{}, nil
			}
			src, err := os.ReadFile(a.Path)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			loader := api.LoaderJS
			if strings.HasSuffix(a.Path, "ts") {
				loader = api.LoaderTS
			}
			s := injectedValues(a.Path) + placedImports(a.Path, string(src), loader)
			return api.OnLoadResult{Contents: &s, Loader: loader}, nil
		})
	}}
	res := api.Build(api.BuildOptions{
		EntryPoints:   []string{file},
		AbsWorkingDir: filepath.Dir(file),
		Bundle:        true,
		Write:         false,
		Platform:      api.PlatformNode,
		Format:        api.FormatESModule,
		Target:        api.ESNext,
		Packages:      api.PackagesExternal,
		Sourcemap:     api.SourceMapInline,
		Outfile:       file + ".bundled.mjs",
		Define: map[string]string{"import.meta.url": "__vite_injected_original_import_meta_url", "import.meta.dirname": "__vite_injected_original_dirname",
			"import.meta.filename": "__vite_injected_original_filename", "__dirname": "__vite_injected_original_dirname", "__filename": "__vite_injected_original_filename"},
		TsconfigRaw: tsconfigRaw,
		LogLevel:    api.LogLevelSilent,
		Plugins: guardInputMaps([]api.Plugin{confined, inject}, true, nil, func(p string) *api.Message {
			// Where it leads decides, not whether it is there (nothing outside is looked at).
			if _, err := rootpath.Resolve(p, readRoot); !errors.Is(err, rootpath.ErrOutside) {
				return nil
			}
			return &api.Message{Text: outside(p).Error()}
		}),
	})
	for _, m := range res.Errors {
		m = cb.confined(m)
		d := diag.Message{Text: m.Text, File: filepath.ToSlash(file)}
		if l := m.Location; l != nil {
			d.File = filepath.ToSlash(filepath.Join(filepath.Dir(file), l.File))
			d.Line, d.Column, d.Length, d.LineText = l.Line, l.Column+1, l.Length, l.LineText
			if l.Line == 1 && strings.HasPrefix(l.LineText, "const __vite_injected") {
				if i := strings.Index(l.LineText, "_import_meta_url = "); i >= 0 {
					if j := strings.Index(l.LineText[i:], ";"); j >= 0 {
						cut := i + j + 1
						d.Column -= cut
						d.LineText = l.LineText[cut:]
					}
				}
			}
		}
		if len(m.Notes) > 0 {
			d.Note = m.Notes[0].Text
		}
		list = append(list, d)
	}
	if len(res.OutputFiles) == 0 {
		return "", list
	}
	return string(res.OutputFiles[0].Contents), list
}

// injectedValues is what bundleViteConfig puts before the text of the config's file p (its
// import.meta.url, __dirname and __filename), on its first line, so that every line keeps its
// number: a column of that line is this much further on in the bundled config.
func injectedValues(p string) string {
	dirJSON, _ := json.Marshal(filepath.Dir(p))
	fileJSON, _ := json.Marshal(p)
	urlJSON, _ := json.Marshal("file://" + filepath.ToSlash(p))
	return "const __vite_injected_original_dirname = " + string(dirJSON) + ";const __vite_injected_original_filename = " +
		string(fileJSON) + ";const __vite_injected_original_import_meta_url = " + string(urlJSON) + ";" + placedImportHelper
}

// importOf returns the place (line, 1-based column) in the config file of its import of pkg,
// or of a package that depends on pkg (its package.json's dependencies, optional or peer,
// from the config's node_modules inside readRoot): the import that loaded pkg.
func importOf(file, pkg, readRoot string) (line, col int, ok bool) {
	src, err := os.ReadFile(file)
	if err != nil {
		return 0, 0, false
	}
	loader := api.LoaderJS
	if strings.HasSuffix(file, "ts") {
		loader = api.LoaderTS
	}
	s, err := readScript(file, string(src), loader)
	if err != nil || s == nil {
		return 0, 0, false
	}
	loads := func(spec string) bool {
		name := packageName(spec)
		if name == pkg {
			return true
		}
		for d := filepath.Dir(file); within(d, readRoot); d = filepath.Dir(d) {
			b, err := os.ReadFile(filepath.Join(d, "node_modules", filepath.FromSlash(name), "package.json"))
			if err != nil {
				if d == readRoot || d == filepath.Dir(d) {
					break
				}
				continue
			}
			var pj map[string]map[string]json.RawMessage
			json.Unmarshal(b, &pj)
			for _, k := range []string{"dependencies", "optionalDependencies", "peerDependencies"} {
				if _, ok := pj[k][pkg]; ok {
					return true
				}
			}
			return false
		}
		return false
	}
	for i := range s.sig {
		if s.tok(i).tt != js.StringToken || !(s.is(i-1, "from") || s.is(i-1, "import") || s.is(i-2, "import", "(") || s.is(i-2, "require", "(")) {
			continue
		}
		spec, err := s.str(i)
		if err != nil || strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") || strings.Contains(spec, ":") || !loads(spec) {
			continue
		}
		if off, ok := s.srcAt(i); ok {
			line = 1 + strings.Count(string(src[:off]), "\n")
			return line, off - (strings.LastIndexByte(string(src[:off]), '\n') + 1) + 1, true
		}
	}
	return 0, 0, false
}

// placedImport is the name of placedImportHelper, as long as "import", which placedImports
// writes over it.
const placedImport = "__bi__"

// placedImportHelper is an import() that keeps the place of its call: what it rejects with
// holds the stack there (importedAt), since the error of a module Node cannot load has the
// loader's stack, not the config's. The bundled config is one module, so that the import()
// in it resolves what the call would have.
const placedImportHelper = `const ` + placedImport + ` = function (s, o) { const at = {}; Error.captureStackTrace(at, ` + placedImport +
	`); return import(s, o).catch((e) => { throw e !== null && typeof e === "object" ? Object.assign(e, { importedAt: at.stack }) : e; }); };`

// placedImports returns src (of a config's file, with loader) with each import() of a value
// (not a string, nor a template literal: those esbuild bundles) calling placedImport instead,
// which is written over "import" so that every place in the file stays where it was: a module
// it cannot load is said at the call, not at the config.
func placedImports(file, src string, loader api.Loader) string {
	s, err := readScript(file, src, loader)
	if err != nil || s == nil {
		return src
	}
	out := []byte(src)
	for i := range s.sig {
		if s.tok(i).tt != js.ImportToken || !s.is(i+1, "(") || s.is(i-1, ".") || s.is(i-1, "?.") {
			continue
		}
		args := s.args(i + 1)
		if len(args) == 0 || s.pair[i+1] < 0 || s.is(s.pair[i+1]+1, "{") { // none, or a method named import
			continue
		}
		if tt := s.tok(args[0][0]).tt; tt == js.StringToken || tt == js.TemplateToken || tt == js.TemplateStartToken {
			continue
		}
		if off, ok := s.srcAt(i); ok && strings.HasPrefix(src[off:], "import") {
			copy(out[off:], placedImport)
		}
	}
	return string(out)
}

// parseViteConfig reads the runner's JSON of the config in file (the app folder dir).
func parseViteConfig(file, dir, out string) (*viteConfig, error) {
	var raw struct {
		Root      json.RawMessage `json:"root"`
		Base      json.RawMessage `json:"base"`
		PublicDir json.RawMessage `json:"publicDir"`
		EnvPrefix json.RawMessage `json:"envPrefix"`
		EnvDir    json.RawMessage `json:"envDir"`
		Define    map[string]json.RawMessage
		Resolve   struct {
			Alias      json.RawMessage `json:"alias"`
			Extensions []string        `json:"extensions"`
			MainFields []string        `json:"mainFields"`
			Conditions []string        `json:"conditions"`
		} `json:"resolve"`
		AssetsInclude json.RawMessage `json:"assetsInclude"`
		CSS           struct {
			Modules             json.RawMessage                       `json:"modules"`
			PreprocessorOptions map[string]map[string]json.RawMessage `json:"preprocessorOptions"`
		} `json:"css"`
		Worker struct {
			Format string `json:"format"`
		} `json:"worker"`
		Build struct {
			Target json.RawMessage `json:"target"`
		} `json:"build"`
		Esbuild      map[string]json.RawMessage `json:"esbuild"`
		Environments struct {
			Client struct {
				Define map[string]json.RawMessage `json:"define"`
			} `json:"client"`
		} `json:"environments"`
		Plugins       []vitePlugin      `json:"plugins"`
		WorkerPlugins []vitePlugin      `json:"workerPlugins"`
		Env           map[string]string `json:"env"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		return nil, fmt.Errorf("read %s: the runner's answer: %w", file, err)
	}
	c := &viteConfig{File: file, Env: raw.Env, Extensions: raw.Resolve.Extensions, MainFields: raw.Resolve.MainFields,
		Conditions: raw.Resolve.Conditions, WorkerFormat: raw.Worker.Format, Preprocessor: raw.CSS.PreprocessorOptions}
	var list diag.List
	bad := func(key, why string) {
		list = append(list, diag.Message{File: filepath.ToSlash(file), Text: fmt.Sprintf("%s: %s", key, why), Note: "write it as Vite's documentation does"})
	}
	str := func(r json.RawMessage) (string, bool) {
		var s string
		return s, json.Unmarshal(r, &s) == nil
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(dir, filepath.FromSlash(p))
	}
	if s, ok := str(raw.Root); ok && s != "" {
		c.Root = abs(s)
	}
	if s, ok := str(raw.Base); ok {
		c.Base = s
	}
	base := dir
	if c.Root != "" {
		base = c.Root
	}
	if len(raw.PublicDir) > 0 {
		if s, ok := str(raw.PublicDir); ok {
			p := s
			if !filepath.IsAbs(p) {
				p = filepath.Join(base, filepath.FromSlash(p))
			}
			c.PublicDir = &p
		} else if string(raw.PublicDir) == "false" {
			off := ""
			c.PublicDir = &off
		}
	}
	if s, ok := str(raw.EnvDir); ok && s != "" {
		if filepath.IsAbs(s) {
			c.EnvDir = s
		} else {
			c.EnvDir = filepath.Join(base, filepath.FromSlash(s))
		}
	}
	if len(raw.EnvPrefix) > 0 {
		var list []string
		if s, ok := str(raw.EnvPrefix); ok {
			list = []string{s}
		} else {
			json.Unmarshal(raw.EnvPrefix, &list)
		}
		for _, p := range list {
			if p == "" {
				bad("envPrefix", `"" would make every variable of .env and of the environment public, which Vite refuses too`)
			}
		}
		c.EnvPrefix = list
	}
	c.Define = map[string]string{}
	for _, defs := range []map[string]json.RawMessage{raw.Define, raw.Environments.Client.Define} {
		for k, v := range defs {
			c.Define[k] = defineValue(v)
		}
	}
	c.Alias = parseAliases(raw.Resolve.Alias, bad)
	c.AssetsInclude = parseAssets(raw.AssetsInclude, bad)
	if len(raw.CSS.Modules) > 0 && string(raw.CSS.Modules) != "false" {
		var m struct {
			GenerateScopedName json.RawMessage `json:"generateScopedName"`
			LocalsConvention   json.RawMessage `json:"localsConvention"`
			HashPrefix         string          `json:"hashPrefix"`
			ScopeBehaviour     string          `json:"scopeBehaviour"`
		}
		json.Unmarshal(raw.CSS.Modules, &m)
		cm := &cssModulesConfig{HashPrefix: m.HashPrefix, ScopeBehaviourAll: m.ScopeBehaviour == "global"}
		if s, ok := str(m.GenerateScopedName); ok {
			cm.ScopedName = s
		} else if len(m.GenerateScopedName) > 0 {
			cm.ScopedNameIsFunc = true
		}
		if s, ok := str(m.LocalsConvention); ok {
			cm.LocalsConvention = s
		} else if len(m.LocalsConvention) > 0 && string(m.LocalsConvention) != "null" {
			cm.LocalsConvention = "(a function)" // a function of the config's, which bundle does not call
		}
		c.CSSModules = cm
	}
	if s, ok := str(raw.Build.Target); ok {
		c.Target = s
	} else {
		var l []string
		if json.Unmarshal(raw.Build.Target, &l) == nil {
			c.Target = strings.Join(l, ",")
		}
	}
	if c.Target == "esnext" || c.Target == "modules" || c.Target == "baseline-widely-available" {
		c.Target = map[string]string{"esnext": "esnext", "modules": "es2020,edge88,firefox78,chrome87,safari14", "baseline-widely-available": ""}[c.Target]
	}
	if v, ok := raw.Esbuild["minifySyntax"]; ok {
		var b bool
		if json.Unmarshal(v, &b) == nil {
			c.MinifySyntax = &b
		}
	}
	if v, ok := raw.Esbuild["legalComments"]; ok {
		c.LegalComments, _ = str(v)
	}
	c.Plugins = append(raw.Plugins, raw.WorkerPlugins...)
	if list.HasErrors() {
		return nil, list.Err()
	}
	return c, nil
}

// defineValue is a define's replacement as Vite writes it: a string is the expression, any
// other value its JSON (undefined: the identifier undefined).
func defineValue(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(v, &obj) == nil {
		if _, ok := obj["undefined"]; ok && len(obj) == 1 {
			return "undefined"
		}
	}
	return string(describedJSON(v))
}

// describedJSON turns the runner's description of a value back into the value's JSON (a
// nested {undefined: true} dropped, as JSON.stringify drops it).
func describedJSON(v json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(v, &obj) == nil {
		if _, ok := obj["undefined"]; ok && len(obj) == 1 {
			return nil
		}
		keys := orderedKeys(v)
		var b strings.Builder
		b.WriteByte('{')
		n := 0
		for _, k := range keys {
			x := describedJSON(obj[k])
			if x == nil {
				continue
			}
			if n > 0 {
				b.WriteByte(',')
			}
			kj, _ := json.Marshal(k)
			b.Write(kj)
			b.WriteByte(':')
			b.Write(x)
			n++
		}
		b.WriteByte('}')
		return json.RawMessage(b.String())
	}
	var arr []json.RawMessage
	if json.Unmarshal(v, &arr) == nil {
		var b strings.Builder
		b.WriteByte('[')
		for i, x := range arr {
			if i > 0 {
				b.WriteByte(',')
			}
			if y := describedJSON(x); y != nil {
				b.Write(y)
			} else {
				b.WriteString("null")
			}
		}
		b.WriteByte(']')
		return json.RawMessage(b.String())
	}
	return v
}

// orderedKeys returns an object's keys in the order written.
func orderedKeys(raw json.RawMessage) []string {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	return keys
}

func parseAssets(raw json.RawMessage, bad func(key, why string)) []viteAsset {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		items = []json.RawMessage{raw}
	}
	var out []viteAsset
	for _, it := range items {
		var s string
		var re struct{ Regex, Flags string }
		switch {
		case json.Unmarshal(it, &s) == nil:
			out = append(out, viteAsset{Glob: s})
		case json.Unmarshal(it, &re) == nil && re.Regex != "":
			rx, err := jsRegexp(re.Regex, re.Flags)
			if err != nil {
				bad("assetsInclude", fmt.Sprintf("/%s/%s is a regular expression bundle cannot read (%v)", re.Regex, re.Flags, err))
				continue
			}
			out = append(out, viteAsset{Regex: rx})
		}
	}
	return out
}

// loadViteConfig reads the app's vite.config, if it has one, on Node inside the fence.
func loadViteConfig(ctx context.Context, dir string, opts Options) (*viteConfig, error) {
	if findViteConfig(dir) == "" {
		return nil, nil
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	if root, err = filepath.Abs(root); err != nil {
		return nil, err
	}
	readRoot, readWhy := workspaceRoot(root)
	cfg, err := readViteConfig(ctx, root, readRoot, readWhy, opts.TempDir, opts.NoFence, opts.NoNode)
	if err != nil {
		return nil, err
	}
	if cfg != nil && cfg.Root != "" {
		// By where it leads, its links followed inside the app folder only: a link out is
		// refused whether or not its target is there.
		real, err := rootpath.Resolve(cfg.Root, root)
		if errors.Is(err, rootpath.ErrOutside) {
			return nil, diag.List{{File: filepath.ToSlash(cfg.File), Text: fmt.Sprintf("root %s is outside the app folder", cfg.Root),
				Note: "set root to a folder inside the app folder (the one that holds index.html)"}}.Err()
		}
		if err == nil {
			cfg.Root = real
		}
	}
	if cfg != nil && cfg.PublicDir != nil && *cfg.PublicDir != "" {
		if _, err := rootpath.Resolve(*cfg.PublicDir, root); errors.Is(err, rootpath.ErrOutside) {
			return nil, diag.List{{File: filepath.ToSlash(cfg.File), Text: fmt.Sprintf("publicDir %s is outside the app folder", *cfg.PublicDir),
				Note: "bundle reads only files inside the app folder: set publicDir to a folder inside it (public, the default)"}}.Err()
		}
	}
	return cfg, nil
}

// entry is the default entry the config gives: root's index.html, as a path in the app
// folder dir; "" for none.
func (c *viteConfig) entry(dir string) string {
	if c == nil || c.Root == "" {
		return ""
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(real, filepath.Join(c.Root, "index.html"))
	if err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}

// apply makes the config's root the app's root (the folder of index.html, of root-relative
// imports and of the public folder), and gives the manifest's [build] what it does not set
// itself: the target and the public folder.
func (c *viteConfig) apply(m *manifest.Manifest) {
	if c == nil {
		return
	}
	if c.Root != "" && c.Root != m.Root {
		if rel, err := filepath.Rel(m.Root, c.Root); err == nil && strings.HasPrefix(m.Entry, filepath.ToSlash(rel)+"/") {
			m.Entry = strings.TrimPrefix(m.Entry, filepath.ToSlash(rel)+"/")
			m.Root = c.Root
		}
	}
	if m.Build.Target == "" && c.Target != "" {
		m.Build.Target = c.Target
	}
	// The manifest's publicDir when it names one; its default ("public") gives way to the
	// config's.
	if (m.Build.PublicDir == "" || m.Build.PublicDir == manifest.DefaultPublicDir) && c.PublicDir != nil {
		if *c.PublicDir == "" {
			m.Build.PublicDir = "" // publicDir: false: there is none
		} else if rel, err := filepath.Rel(m.Root, *c.PublicDir); err == nil && !strings.HasPrefix(rel, "..") {
			m.Build.PublicDir = filepath.ToSlash(rel)
		}
	}
}

// defines are the build's define: import.meta.env (the public variables, Vite's own, the
// config's import.meta.env.* defines in it), then the config's define, then the manifest's.
func (c *viteConfig) defines(env map[string]string, user map[string]string) map[string]string {
	base := "/"
	merged := map[string]string{}
	var envRaw map[string]string
	if c != nil {
		if c.Base != "" {
			base = c.Base
		}
		for k, v := range c.Define {
			if name, ok := strings.CutPrefix(k, "import.meta.env."); ok {
				if envRaw == nil {
					envRaw = map[string]string{}
				}
				envRaw[name] = v
			}
			merged[k] = v
		}
	}
	for k, v := range user {
		merged[k] = v
	}
	return definesWith(env, merged, base, envRaw)
}

// conditions are esbuild's Conditions: Vite's client conditions (module, browser,
// production), or the config's resolve.conditions.
func (c *viteConfig) conditions() []string {
	if c == nil || c.Conditions == nil {
		return []string{"module", "production"}
	}
	var out []string
	for _, k := range c.Conditions {
		if k == "development|production" {
			k = "production"
		}
		out = append(out, k)
	}
	return out
}

// extensions are the config's resolve.extensions, else esbuild's with Vite's .mjs and .mts
// after them (import './worker' of worker.mjs resolves in Vite).
func (c *viteConfig) extensions() []string {
	if c == nil || c.Extensions == nil {
		return []string{".tsx", ".ts", ".jsx", ".js", ".css", ".json", ".mjs", ".mts"}
	}
	return c.Extensions
}

// mainFields are the config's resolve.mainFields with main last, as Vite falls back to it;
// nil for esbuild's.
func (c *viteConfig) mainFields() []string {
	if c == nil || c.MainFields == nil {
		return nil
	}
	out := append([]string(nil), c.MainFields...)
	if !slices.Contains(out, "main") {
		out = append(out, "main")
	}
	return out
}

// minifySyntax is esbuild.minifySyntax, true unless the config turns it off.
func (c *viteConfig) minifySyntax() bool { return c == nil || c.MinifySyntax == nil || *c.MinifySyntax }

// assetExtensions are the extensions assetsInclude names (a glob's last segment *.ext, with
// {a,b} braces spread): files the app imports as their URL, as images are.
func (c *viteConfig) assetExtensions() []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, a := range c.AssetsInclude {
		last := a.Glob[strings.LastIndexByte(a.Glob, '/')+1:]
		rest, ok := strings.CutPrefix(last, "*.")
		if !ok {
			continue
		}
		if inner, ok := strings.CutPrefix(rest, "{"); ok && strings.HasSuffix(inner, "}") {
			for _, e := range strings.Split(strings.TrimSuffix(inner, "}"), ",") {
				out = append(out, "."+e)
			}
		} else if !strings.ContainsAny(rest, "*?[]{}") {
			out = append(out, "."+rest)
		}
	}
	return out
}

// envPrefixes are the prefixes of public variables: the config's envPrefix, else Vite's and
// bundle's own.
// setEnv returns the value the config set in process.env for key, and whether it set one.
func (c *viteConfig) setEnv(key string) (string, bool) {
	if c == nil {
		return "", false
	}
	v, ok := c.Env[key]
	return v, ok
}

func (c *viteConfig) envPrefixes() []string {
	if c == nil || c.EnvPrefix == nil {
		return publicPrefixes
	}
	return c.EnvPrefix
}
