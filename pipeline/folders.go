package pipeline

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/evanw/esbuild/pkg/api"
)

// folders holds what one build read of each folder it listed: the barrel rewriting's
// resolution of the modules a barrel names, the explanations of imports that do not resolve,
// and the search for node_modules read each folder once. A build of a dashboard asked for
// lucide-react's icon folder (4,700 names) 263 times and for "/" 930 times: esbuild's resolver,
// made anew for each resolution a plugin asks for, keeps nothing from one to the next. Safe
// for concurrent use; the zero value is empty.
type folders struct {
	m sync.Map // folder (clean, absolute) → *folder
	// resolved holds the resolutions the barrel rewriting asked of esbuild, by folder and
	// specifier.
	resolved sync.Map
}

// noFolderCache makes every read of folders and every resolution go to the file system and
// to esbuild, as before there was a cache: BenchmarkDashboard measures with it.
var noFolderCache atomic.Bool

type folder struct {
	once  sync.Once
	names []string               // sorted
	types map[string]fs.FileMode // by name: the type bits of the entry (a link is a link)
	err   error
}

// read returns the listing of dir, read once per build.
func (f *folders) read(dir string) *folder {
	if noFolderCache.Load() {
		d := &folder{}
		d.load(dir)
		return d
	}
	v, _ := f.m.LoadOrStore(dir, &folder{})
	d := v.(*folder)
	d.once.Do(func() { d.load(dir) })
	return d
}

func (d *folder) load(dir string) {
	entries, err := os.ReadDir(dir)
	d.err = err
	d.types = make(map[string]fs.FileMode, len(entries))
	for _, e := range entries {
		d.names = append(d.names, e.Name())
		d.types[e.Name()] = e.Type()
	}
	slices.Sort(d.names)
}

// names returns the names in dir, sorted (nil and the error when it cannot be read); the
// caller must not change the slice.
func (f *folders) names(dir string) ([]string, error) {
	d := f.read(dir)
	return d.names, d.err
}

// entry returns the type bits of the entry p in its folder's listing, and whether it is there.
// Without the cache, the file system is asked of p alone (lstat), as before the listings were
// kept: listing lucide-react's icon folder (4,700 names) for each of the extensions tried of
// each import made a test of the cache's page run 390 s of the race run's 1,000 on two busy
// cores, and compared the listing with itself.
func (f *folders) entry(p string) (fs.FileMode, bool) {
	if noFolderCache.Load() {
		st, err := os.Lstat(p)
		if err != nil {
			return 0, false
		}
		return st.Mode().Type(), true
	}
	t, ok := f.read(filepath.Dir(p)).types[filepath.Base(p)]
	return t, ok
}

// isDir reports whether p is a folder, or a link to one.
func (f *folders) isDir(p string) bool {
	t, ok := f.entry(p)
	switch {
	case !ok:
		return false
	case t&fs.ModeSymlink != 0:
		st, err := os.Stat(p)
		return err == nil && st.IsDir()
	}
	return t.IsDir()
}

// isFile reports whether p is a regular file (no link: a link is left to esbuild's resolver).
func (f *folders) isFile(p string) bool {
	t, ok := f.entry(p)
	return ok && t.IsRegular()
}

// resolve is resolve(spec, opts), asked of esbuild once per build for each folder,
// specifier and project: project names the tsconfig of the importer's own project ("" for
// the app's), whose paths resolve its bare imports (projectPathsResolve), so that two files
// of one folder in two projects each get their own.
func (f *folders) resolve(resolve func(string, api.ResolveOptions) api.ResolveResult, spec, project string, opts api.ResolveOptions) api.ResolveResult {
	if noFolderCache.Load() {
		return resolve(spec, opts)
	}
	key := opts.ResolveDir + "\x00" + spec + "\x00" + project
	if v, ok := f.resolved.Load(key); ok {
		return v.(api.ResolveResult)
	}
	r := resolve(spec, opts)
	f.resolved.Store(key, r)
	return r
}
