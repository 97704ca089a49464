package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/confine"
	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/internal/rootpath"
	"github.com/miniapp/bundle/pipeline/internal/nodetool"
	"github.com/tdewolff/parse/v2/js"
)

// Fence returns what a build of the app in dir with opts needs of the kernel's fence, for a
// caller that confines its process before it builds (bundle build, bundle dev): read the
// app's root (the app folder, or the workspace root above it), run Node and the libraries it
// loads when Node is on PATH and the app may start it (a vite.config or npm packages) unless
// opts.NoNode, and write the output folder (unless opts.NoWrite) and opts.TempDir. It makes
// the output folder, which a fence can name only once it exists, and refuses one that is a
// symbolic link out of the app folder, as Build does.
func Fence(dir string, opts Options) (confine.Fence, error) {
	root, readRoot, err := fenceRoots(dir)
	if err != nil {
		return confine.Fence{}, err
	}
	f := confine.Fence{Read: []string{readRoot}}
	// Node's files are found (reading its ELF headers and the loader's configuration) while
	// the output folder is made: on a two-core machine the two overlap. An app that cannot
	// run Node starts no goroutine to say so, which a busy machine may run late.
	var exe chan []string
	if !opts.NoNode && mayRunNode(root, readRoot) {
		exe = make(chan []string, 1) // buffered: an early return leaves the lookup to end alone
		go func() {
			var rt []string
			if node, err := exec.LookPath("node"); err == nil {
				rt, _ = confine.Program(node)
			}
			exe <- rt
		}()
	}
	if opts.TempDir != "" {
		f.Write = append(f.Write, opts.TempDir)
	}
	if !opts.NoWrite {
		out, err := outputDir(dir, root, opts)
		if err != nil {
			return confine.Fence{}, err
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			return confine.Fence{}, fmt.Errorf("create %s: %w", out, err)
		}
		f.Write = append(f.Write, out)
		// The manifests of the app folders that wrote ids there (OwnersFile), read to tell
		// whether another app still claims this one's id.
		f.Read = append(f.Read, ownerManifests(out, readRoot)...)
	}
	if exe != nil {
		f.Exec = <-exe
	}
	return f, nil
}

// fenceRoots returns the app's root (dir, its links resolved) and the folder its build reads,
// the workspace root: found once for the fence, NeedsNode and the build (workspaceRoot).
func fenceRoots(dir string) (root, readRoot string, err error) {
	if root, err = filepath.EvalSymlinks(dir); err != nil {
		return "", "", err
	}
	if root, err = filepath.Abs(root); err != nil {
		return "", "", err
	}
	if w, ok := fencedRoots.Load(root); ok {
		return root, w.([2]string)[0], nil
	}
	readRoot, why := findWorkspaceRoot(root)
	fencedRoots.Store(root, [2]string{readRoot, why})
	return root, readRoot, nil
}

// NeedsNode reports whether a build of the app in dir may start Node, by what is there before
// it starts: a vite.config (Node reads it), a PostCSS config (Node runs it, and the plugins it
// names), or the package a CSS tool or a framework's compiler loads first, installed where the
// tool looks for it (nodetool.ToolInstalled: Sass for a .scss file, Less, Stylus, PostCSS,
// Tailwind CSS, the compilers of Vue, Svelte and Solid). Without any, every tool a build of
// the app may come to need fails before it runs anything (its package is not installed: an
// npm package's own .scss file is compiled by the app's Sass), and a build with Options.NoNode
// says so without starting Node. A caller that fences its process for one build (bundle
// build, bundle pin) builds such an app with NoNode, and its fence leaves Node out: finding
// what Node loads to start is most of the fence's cost (confine.Program). It looks at nothing
// outside the app's root, and says true where it cannot tell (a pnpm store, a dependency
// linked from elsewhere) or cannot read dir.
func NeedsNode(dir string) bool {
	root, readRoot, err := fenceRoots(dir)
	if err != nil {
		return true // the build says what is wrong
	}
	for _, name := range viteConfigFiles {
		if _, err := os.Lstat(filepath.Join(root, name)); err == nil {
			return true // as mayRunNode
		}
	}
	if !nodetool.HasPackages(root, readRoot) {
		return false
	}
	if config, outside := findPostcssConfig(root, readRoot); config != "" || outside != "" {
		return true
	}
	return nodetool.ToolInstalled(root, readRoot)
}

// Fences says which fences held the builds this process ran, for a caller whose process is
// not inside the kernel's fence (Options.NoFence, or a kernel without Landlock), once they are
// done, as bundle says it: held is "path checks", with ", node permission model" where Node ran
// the app's code under its permission model, or ", node in landlock v7" where Node ran inside a
// kernel's fence of its own; note says why only the path checks held Node where it ran without
// either ("Node v18.20.4 has no permission model"), else "". It starts no Node: where none ran,
// the path checks alone held.
func Fences() (held, note string) {
	held = confine.Status{}.String()
	var notes []string
	for _, f := range nodetool.Ran() {
		switch {
		case f == "node permission model":
			held += ", " + f
		case strings.HasPrefix(f, "landlock"):
			held += ", node in " + f
		default:
			notes = append(notes, f)
		}
	}
	return held, strings.Join(notes, "; ")
}

// NodeModel says, before a build, whether the Node on PATH would run the app's code under
// its permission model where no kernel's fence is around Node (nodetool.Model): held, else
// why not ("Node v18.20.4 has no permission model"; "" where no Node is on PATH). It runs node
// --version: a caller that can say it once the build is done asks Fences instead.
func NodeModel() (held bool, why string) { return nodetool.Model() }

// mayRunNode reports whether a build of the app in root, which reads readRoot, may start Node:
// to run the app's own npm packages (its CSS tools), which are found only in a node_modules
// folder of the app or of a folder above it up to readRoot, or to read a vite.config. An app
// with neither (a plain page, a TypeScript app without packages) never does, and its fence
// leaves Node and the libraries it loads out: finding them (confine.Program) costs more than
// the rest of the fence, 1 ms of a 25 ms build of samples/hello.
func mayRunNode(root, readRoot string) bool {
	for _, name := range viteConfigFiles {
		if _, err := os.Lstat(filepath.Join(root, name)); err == nil {
			return true
		}
	}
	return nodetool.HasPackages(root, readRoot)
}

// OutputDir returns the folder a build of the app in dir with opts writes to: opts.OutDir, or
// the app's dist, which is refused (a *diag.ListError naming it) when a symbolic link leads it
// out of the app folder. bundle pin asks it for a page's, the page's folder the app's.
func OutputDir(dir string, opts Options) (string, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	if root, err = filepath.Abs(root); err != nil {
		return "", err
	}
	return outputDir(dir, root, opts)
}

// outputDir returns the folder a build of the app in dir (whose real path is root) writes to:
// opts.OutDir as the caller named it, or <app>/dist, which must not lead out of the app
// folder through a symbolic link (the app's author could point it at another app's output,
// or a host's).
func outputDir(dir, root string, opts Options) (string, error) {
	if opts.OutDir != "" {
		return filepath.Abs(opts.OutDir)
	}
	out := filepath.Join(root, "dist")
	// Where a link leads decides, not whether its target exists: nothing outside the app
	// folder is looked at.
	real, err := rootpath.Resolve(out, root)
	switch {
	case errors.Is(err, rootpath.ErrOutside):
		err = nil
	case errors.Is(err, fs.ErrNotExist):
		if _, lerr := os.Lstat(out); lerr != nil {
			return out, nil // bundle makes it
		}
		err = errors.New("a symbolic link to a folder that does not exist")
	case err == nil && real != root:
		return out, nil
	}
	name := filepath.ToSlash(filepath.Join(dir, "dist"))
	why := "a symbolic link to a folder outside the app folder"
	if err != nil {
		why = err.Error()
	}
	return "", diag.List{{File: name, Text: fmt.Sprintf("the output folder %s is %s", name, why),
		Note: "remove the link (bundle makes the folder), or name the folder to write to with --out"}}.Err()
}

// readIn reads the file at p when it, its symbolic links resolved, is inside root, the folder
// the build may read; a file outside is fs.ErrPermission, as the kernel's fence answers. The
// small readers of the build (a package.json's type, browser, imports or dependencies, a
// package's version, the folders listed for advice) read through it, so that a link in the
// app (package.json, node_modules/x) shows nothing of where it leads, with or without the
// kernel's fence.
//
// Nothing outside root is looked at: a path that leads out is fs.ErrPermission whether or not
// it exists there.
func readIn(p, root string) ([]byte, error) {
	if _, err := rootpath.Resolve(p, root); errors.Is(err, rootpath.ErrOutside) {
		return nil, &fs.PathError{Op: "read", Path: p, Err: fs.ErrPermission}
	} else if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

// inRoot reports whether p, its symbolic links resolved, is inside the folder the build may
// read; a path that cannot be resolved is not.
func (b *bundler) inRoot(p string) bool {
	_, err := b.realPath(p)
	return err == nil
}

// leavesRoot reports whether the folder p (which may not exist) is outside the folder the
// build may read: by its name, or by where a symbolic link on the way leads, whether or not
// anything is there (nothing outside is looked at).
func (b *bundler) leavesRoot(p string) bool {
	_, err := rootpath.Resolve(filepath.Clean(p), b.readRoot)
	return errors.Is(err, rootpath.ErrOutside)
}

// aboveRoot refuses, where nothing keeps esbuild's resolver out of the folders above the
// root (no kernel fence: another system, or Build in a process of the caller's), a
// package.json up there whose fields esbuild would apply to the app's files: a "browser"
// map (esbuild applies the nearest one above a file, unless the app's own package.json has
// one, even {}), and, when the app has no package.json of its own, the "type" (whether its
// .js and .ts files are ES modules), "sideEffects", "imports" or "exports" (with a "name")
// of the nearest one; and a Yarn Plug'n'Play
// manifest (pnpAboveRoot). Only the presence of those keys is looked at; nothing of the file
// is shown. Under the fence esbuild cannot read those folders, and nothing is checked.
func (b *bundler) aboveRoot() diag.List {
	parent := filepath.Dir(b.readRoot)
	if parent == b.readRoot {
		return nil
	}
	f, err := os.Open(parent)
	if err != nil {
		return nil // fenced, or unreadable: esbuild finds nothing there either
	}
	f.Close()
	if d := b.pnpAboveRoot(); d != nil {
		return diag.List{*d}
	}
	own, ownBrowser := false, false
	for d := b.root; ; d = filepath.Dir(d) {
		if p := filepath.Join(d, "package.json"); b.inRoot(p) {
			own = true
			var fields map[string]json.RawMessage
			if src, err := os.ReadFile(p); err == nil && json.Unmarshal(src, &fields) == nil {
				_, has := fields["browser"]
				ownBrowser = ownBrowser || has
			}
		}
		if d == b.readRoot || filepath.Dir(d) == d {
			break
		}
	}
	nearest := !own
	for d := parent; ; d = filepath.Dir(d) {
		p := filepath.Join(d, "package.json")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			var fields map[string]json.RawMessage
			if src, err := os.ReadFile(p); err == nil && json.Unmarshal(src, &fields) == nil {
				var applied []string
				_, named := fields["name"]
				for _, k := range []string{"browser", "type", "sideEffects", "imports", "exports"} {
					// "exports" with a "name": esbuild resolves an import of that name (a
					// self-reference) by it, before node_modules.
					if _, ok := fields[k]; ok && (k != "exports" || named) && (k == "browser" && !ownBrowser || k != "browser" && nearest) {
						applied = append(applied, fmt.Sprintf("%q", k))
					}
				}
				if len(applied) > 0 {
					return diag.List{{File: filepath.ToSlash(p), Text: fmt.Sprintf("%s, above %s, has %s, which esbuild would apply to the app's files", filepath.ToSlash(p), b.rootName(), strings.Join(applied, " and ")),
						Note: "bundle applies nothing from outside the app: give the app a package.json of its own with \"browser\": {} and \"sideEffects\", or build it where the kernel fence holds (bundle build on Linux), which keeps esbuild out of the folders above it"}}
				}
			}
			nearest = false
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}

// pnpAboveRoot refuses the Yarn Plug'n'Play manifest esbuild would apply to the app's package
// imports when it is outside the root: esbuild takes the nearest from its working folder (the
// app folder) up, in each folder .pnp.data.json, else .pnp.cjs, else .pnp.js (a link to a
// file counts), and resolves every package by it, before node_modules. One above the root, or
// one that links out of it, would swap an installed package for any folder it names.
func (b *bundler) pnpAboveRoot() *diag.Message {
	for d := b.root; ; d = filepath.Dir(d) {
		for _, name := range []string{".pnp.data.json", ".pnp.cjs", ".pnp.js"} {
			p := filepath.Join(d, name)
			if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
				continue
			}
			if b.inRoot(p) {
				return nil // the app's own (its workspace's): what Yarn installed for it
			}
			where := "above " + b.rootName()
			if within(d, b.readRoot) {
				where = "a symbolic link to a file outside " + b.rootName()
			}
			return &diag.Message{File: filepath.ToSlash(p), Text: fmt.Sprintf("%s, %s, is a Yarn Plug'n'Play manifest, which esbuild would apply to the app's package imports", filepath.ToSlash(p), where),
				Note: "bundle applies nothing from outside the app: build it outside that Yarn project, make the project's folder its workspace root (a package.json with \"workspaces\" that names the app), or build it where the kernel fence holds (bundle build on Linux), which keeps esbuild out of the folders above it"}
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}

// rootName names the folder the build may read, for messages: "the app folder" or "the
// workspace root <dir>".
func (b *bundler) rootName() string {
	if b.readRoot == b.root {
		return "the app folder"
	}
	return "the workspace root " + b.rootPath()
}

// rootPath names the root as the build's folder is named (b.dir): built from inside the app
// folder, where that would be .. or ../.., which names nothing, by its path.
func (b *bundler) rootPath() string {
	rel, _ := filepath.Rel(b.root, b.readRoot)
	if d := b.display(filepath.ToSlash(rel)); strings.Trim(d, "./") != "" {
		return d
	}
	return filepath.ToSlash(b.readRoot)
}

// confined returns esbuild's message m with nothing of a file outside the root in it: a
// message at such a file (which esbuild's resolver read for itself, where no kernel fence
// keeps it out: a package.json above the app, one a link leads out to) keeps its place
// and loses its text and source line, which could quote the file.
func (b *bundler) confined(m api.Message) api.Message {
	outside := func(l *api.Location) bool {
		if l == nil || l.File == "" || strings.HasPrefix(l.File, "<") || strings.Contains(l.File, ":") && !filepath.IsAbs(l.File) {
			return false // no file, or a namespace of the build's own
		}
		p := b.abs(l.File)
		if _, err := os.Lstat(p); err != nil {
			return !b.inRoot(filepath.Dir(p)) // no such file: where it would be
		}
		return !b.inRoot(p)
	}
	if outside(m.Location) {
		file := b.messageFile(m.Location.File)
		m = api.Message{Text: fmt.Sprintf("%s, outside %s, cannot be used (bundle does not show what it holds)", file, b.rootName()),
			Location: &api.Location{File: m.Location.File},
			Notes:    []api.Note{{Text: "keep every file the app uses inside " + b.rootName()}}}
	}
	notes := m.Notes[:0:0]
	for _, n := range m.Notes {
		if outside(n.Location) {
			continue
		}
		notes = append(notes, n)
	}
	m.Notes = notes
	return m
}

// viteConfigFiles are the names of a Vite config, in the order Vite looks for them.
var viteConfigFiles = []string{"vite.config.js", "vite.config.mjs", "vite.config.ts", "vite.config.cjs", "vite.config.mts", "vite.config.cts"}

// mayGlob finds what may be esbuild's own glob: require( or import( whose argument starts
// with a string a + continues, or a template literal with a substitution.
var mayGlob = regexp.MustCompile(`\b(?:require|import)\s*\(\s*(?:["'][^"'\n]*["']\s*\+|` + "`[^`]*\\$\\{)")

// globsOutside refuses esbuild's own globs in the script file (src, read with loader) whose
// folder leaves the root: require("../x/" + name), require(`../x/${name}.js`), and, where
// rewrite is false (a package's module, which the source transforms leave), import() of
// either (an app script's import() of a template is the source transforms' glob, which
// refuses it). esbuild lists the folder the literal's static part names, before any file it
// finds reaches the confine plugin, and names each in its messages: with the path checks
// alone a build said which files a folder beside the app holds, and under the kernel's fence
// it found none and built. The folder is refused by where it leads, as import.meta.glob's is.
func (b *bundler) globsOutside(file, src string, loader api.Loader, rewrite bool) []api.Message {
	if !mayGlob.MatchString(src) {
		return nil
	}
	s, err := readScript(file, src, loader)
	if err != nil || s == nil {
		return nil // the source transforms or esbuild say why
	}
	var msgs []api.Message
	for i := range s.sig {
		call := s.is(i, "require", "(")
		imp := s.tok(i).tt == js.ImportToken && s.is(i+1, "(")
		if !call && !imp || s.is(i-1, ".") || s.is(i-1, "?.") {
			continue
		}
		args := s.args(i + 1)
		if len(args) == 0 {
			continue
		}
		a := args[0]
		var head string
		switch t := s.tok(a[0]); {
		case t.tt == js.StringToken && s.is(a[0]+1, "+"):
			head, _ = s.str(a[0])
		case t.tt == js.TemplateStartToken && (call || !rewrite):
			head = string(s.js[t.start+1 : t.end-2])
		default:
			continue
		}
		if !strings.HasPrefix(head, "./") && !strings.HasPrefix(head, "../") {
			continue // not a glob of esbuild's: left to run, and the check of the page
		}
		folder := head[:strings.LastIndexByte(head, '/')+1]
		if !b.leavesRoot(filepath.Join(filepath.Dir(file), filepath.FromSlash(folder))) {
			continue
		}
		off, _ := s.srcAt(a[0])
		msgs = append(msgs, *at(file, src, off,
			fmt.Sprintf("this %s names the files of %s, outside %s, which esbuild would list to bundle each it may name", s.text(i)+"()", folder, b.rootName()),
			"a build reads nothing outside the root: move the files in, or name each file in an import of its own"))
	}
	return msgs
}
