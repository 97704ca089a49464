package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/registry"
)

// ErrNoApps is returned (wrapped) by FindApps for a folder with no manifest at any depth.
var ErrNoApps = errors.New("no app folders")

// FindApps returns the app folders that roots name: a root that holds a manifest is an app;
// any other folder is searched at every depth for folders that do. The search does not
// descend into an app folder, node_modules, dist, or a folder whose name starts with "." or
// "_". Folders are returned in the order of roots, each root's sorted, without duplicates.
func FindApps(roots ...string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, root := range roots {
		st, err := os.Stat(root)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, noFolder(root)
		}
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("%s is not a folder: give the app folder, the one with its %s (%s)", root, manifest.TOMLName, filepath.Dir(root))
		}
		var found []string
		// A link to a folder is walked as the folder (WalkDir does not follow its root when
		// it is a link: an app reached through one was "no manifest").
		walk := root
		if lst, err := os.Lstat(root); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
			walk = root + string(filepath.Separator)
		}
		err = filepath.WalkDir(walk, func(p string, d fs.DirEntry, err error) error {
			if p == walk {
				p = root
			}
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return nil
			}
			name := d.Name()
			if p != root && (name == "node_modules" || name == "dist" || name[0] == '.' || name[0] == '_') {
				return filepath.SkipDir
			}
			if hasManifest(p) {
				found = append(found, p)
				return filepath.SkipDir
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			if st, err := os.Stat(filepath.Join(root, "index.html")); err == nil && !st.IsDir() {
				// An app without its manifest, as a Vite app is: say what to write.
				also := ""
				if _, other := manifest.File(root); other != "" {
					also = fmt.Sprintf(" (its %s is %s, a file of the app)", manifest.JSONName, other)
				}
				return nil, fmt.Errorf("%w in %s: it has an index.html but no manifest%s; write %s with an id, a name and a description (its entry is index.html)",
					ErrNoApps, root, also, filepath.Join(root, manifest.TOMLName))
			}
			return nil, fmt.Errorf("%w in %s: no %s or %s at any depth; bundle init makes an app", ErrNoApps, root, manifest.TOMLName, manifest.JSONName)
		}
		slices.Sort(found)
		for _, f := range found {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// noFolder is the error for a folder that does not exist; it is fs.ErrNotExist (errors.Is).
type noFolder string

func (n noFolder) Error() string { return "there is no folder " + string(n) }
func (n noFolder) Unwrap() error { return fs.ErrNotExist }

func hasManifest(dir string) bool {
	p, _ := manifest.File(dir)
	return p != ""
}

// AppResult is what building one app of many gave: a Result, or the error Build returned.
type AppResult struct {
	Dir    string
	Result *Result
	Err    error
}

// BuildAll builds the app folders dirs in parallel, at most jobs at once (GOMAXPROCS when
// jobs < 1), and calls done (never concurrently) as each finishes, with its index in dirs.
// One app's failure does not stop the others. Two apps with the same id are both refused,
// each error naming the other's folder. Every output folder an app was written to gets a
// registry.json listing every entry in it; BuildAll returns their paths, sorted, and the
// error of one it could not write. The results are in the order of dirs.
func BuildAll(ctx context.Context, dirs []string, opts Options, jobs int, done func(i int, r AppResult)) ([]AppResult, []string, error) {
	if jobs < 1 {
		jobs = runtime.GOMAXPROCS(0)
	}
	results := make([]AppResult, len(dirs))
	var mu sync.Mutex
	finish := func(i int, r AppResult) {
		mu.Lock()
		defer mu.Unlock()
		results[i] = r
		if done != nil {
			done(i, r)
		}
	}
	dup := duplicateIDs(dirs)
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(jobs, len(dirs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if err := dup[i]; err != nil {
					finish(i, AppResult{Dir: dirs[i], Err: err})
					continue
				}
				if err := ctx.Err(); err != nil {
					finish(i, AppResult{Dir: dirs[i], Err: fmt.Errorf("build %s: interrupted: %w", dirs[i], err)})
					continue
				}
				res, err := Build(ctx, dirs[i], opts)
				finish(i, AppResult{Dir: dirs[i], Result: res, Err: err})
			}
		}()
	}
	for i := range dirs {
		work <- i
	}
	close(work)
	wg.Wait()
	outs := map[string]bool{}
	for _, r := range results {
		if r.Err == nil && r.Result.HTMLPath != "" {
			outs[filepath.Dir(r.Result.HTMLPath)] = true
		}
	}
	var written []string
	for _, d := range slices.Sorted(maps.Keys(outs)) {
		p, err := WriteRegistry(d)
		if err != nil {
			return results, written, fmt.Errorf("write the registry of %s: %w", d, err)
		}
		written = append(written, p)
	}
	return results, written, nil
}

// duplicateIDs loads each folder's manifest and returns, for the folders whose id another
// folder also has, the error that refuses them.
func duplicateIDs(dirs []string) map[int]error {
	byID := map[string][]int{}
	files := make([]string, len(dirs))
	for i, d := range dirs {
		m, err := manifest.Load(d)
		if err != nil {
			continue // Build reports it
		}
		byID[m.ID] = append(byID[m.ID], i)
		files[i] = m.File
	}
	out := map[int]error{}
	for id, is := range byID {
		if len(is) < 2 {
			continue
		}
		for _, i := range is {
			var others []string
			for _, j := range is {
				if j != i {
					others = append(others, dirs[j])
				}
			}
			out[i] = diag.List{{File: files[i], Path: "id", Text: fmt.Sprintf("id %q is also the id of %s", id, joinAnd(others)),
				Note: "give each app its own id: the id names the output files and the app's key in registry.json"}}.Err()
		}
	}
	return out
}

func joinAnd(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// WriteRegistry writes dir/registry.json listing every registry entry in dir whose page is
// there (registry.Folder), atomically.
func WriteRegistry(dir string) (string, error) {
	r, err := registry.Folder(dir)
	if err != nil {
		return "", err
	}
	b, err := registry.Marshal(r)
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, registry.FileName)
	return p, writeAtomic(p, b)
}
