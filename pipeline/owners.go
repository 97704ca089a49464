package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/internal/rootpath"
	"github.com/miniapp/bundle/manifest"
)

// OwnersFile is the file in an output folder that says which app folder wrote each id there,
// so that a build of another app with the same id into the same folder, in another run, is
// refused instead of replacing the first app's page (BuildAll refuses two in one run). It
// holds each folder as a path relative to the output folder, so that its bytes are the same
// wherever the project is; registry.json, which hosts read, names no folder. Its name starts
// with a dot: bundle serve and a host's copy of the registry leave it alone.
const OwnersFile = ".bundle-apps.json"

// owners is the content of OwnersFile.
type owners struct {
	SchemaVersion int               `json:"schema_version"`
	Apps          map[string]string `json:"apps"` // id → app folder, relative to the output folder
}

// ownersLocks serializes, per output folder, the check of an id and the writing of the
// build's files and OwnersFile: BuildAll builds into one folder from several goroutines.
var ownersLocks sync.Map // absolute output folder → *sync.Mutex

func lockOwners(outDir string) func() {
	abs, err := filepath.Abs(outDir)
	if err != nil {
		abs = outDir
	}
	mu, _ := ownersLocks.LoadOrStore(abs, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	return mu.(*sync.Mutex).Unlock
}

// readOwners reads the OwnersFile of outDir; a folder without one has no owners, nor one
// whose OwnersFile is a symbolic link, which is not read (it may lead out of the folder, and
// the folders it names are printed) and is replaced.
func readOwners(outDir string) (owners, error) {
	o := owners{SchemaVersion: 1, Apps: map[string]string{}}
	p := filepath.Join(outDir, OwnersFile)
	if st, err := os.Lstat(p); err == nil && !st.Mode().IsRegular() {
		return o, nil
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return o, nil
	}
	if err != nil {
		return o, err
	}
	if err := json.Unmarshal(b, &o); err != nil || o.Apps == nil {
		return owners{SchemaVersion: 1, Apps: map[string]string{}}, nil // rewritten whole
	}
	return o, nil
}

// claim returns the OwnersFile of outDir with the id of m written by the app folder dir, or,
// when another app folder wrote that id there and still claims it (its page is there, and
// its manifest has the id, or cannot be read), the error that refuses the build, naming
// both folders. readRoot is the folder the app's build may read (the app's root, or its
// workspace root): an OwnersFile inside it is the app author's to write (a dist/ in the app),
// and a folder it names outside readRoot is not looked at (ownerOutside), so what the build
// says does not depend on what is there.
func claim(outDir, dir, readRoot string, m *manifest.Manifest) ([]byte, error) {
	o, err := readOwners(outDir)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(outDir, OwnersFile), err)
	}
	absOut, err1 := realAbs(outDir)
	absDir, err2 := realAbs(dir)
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(absOut, absDir)
	if err != nil {
		return nil, err
	}
	rel = filepath.ToSlash(rel)
	if prev, ok := o.Apps[m.ID]; ok && prev != rel && !ownerOutside(absOut, prev, readRoot) {
		other := filepath.Join(absOut, filepath.FromSlash(prev))
		page := filepath.Join(outDir, m.ID+".html")
		realOther, _ := realAbs(other)
		if _, err := os.Stat(page); err == nil && realOther != absDir && claims(other, m.ID) {
			shown := filepath.Join(outDir, filepath.FromSlash(prev)) // as the caller names the output folder
			return nil, diag.List{m.Message(diag.Error, "id", fmt.Sprintf("id %q is also the id of %s, which wrote %s", m.ID, shown, page),
				"give each app its own id (it names the output files and the app's key in registry.json), or build into another folder (--out); if "+shown+" is no longer built there, remove "+page)}.Err()
		}
	}
	o.Apps[m.ID] = rel
	// Sorted keys, indented, a final newline: the same bytes for the same apps.
	b, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// realAbs returns p absolute, its links resolved where it exists.
func realAbs(p string) (string, error) {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return filepath.Abs(p)
}

// claims reports whether the app folder dir still has the id: its manifest says so, or is
// there but cannot be read (a fence that does not let this build read it).
func claims(dir, id string) bool {
	p, _ := manifest.File(dir)
	if p == "" {
		return false // moved, removed, or no longer an app
	}
	m, err := manifest.Load(dir)
	if err != nil {
		var el *diag.ListError
		return !errors.As(err, &el) // unreadable: it may still be the id's
	}
	return m.ID == id
}

// ownerOutside reports whether the app folder rel (as the OwnersFile of the output folder
// absOut, absolute and real, names it) is one a build that reads readRoot does not look at:
// the OwnersFile is inside readRoot, where the app's author may write it, and rel leads out
// of readRoot (by name, or through a link inside it, followed by the path checks' resolver,
// which looks at nothing outside). Such a folder claims no id: an app's dist/.bundle-apps.json
// that named a folder beside the app made its build read that folder's manifest (the kernel's
// fence let it) and say whether it held the app's id. An output folder outside readRoot (a
// --out the builder chose) is the builder's: the folders its OwnersFile names are looked at.
func ownerOutside(absOut, rel, readRoot string) bool {
	if readRoot == "" || !rootpath.Inside(absOut, readRoot) {
		return false
	}
	_, err := rootpath.Resolve(filepath.Join(absOut, filepath.FromSlash(rel)), readRoot)
	return errors.Is(err, rootpath.ErrOutside)
}

// ownerManifests returns the manifest files of the app folders the OwnersFile of outDir
// names, that exist: a fenced build reads them to tell whether they still claim their ids.
// Each is the file itself, its folder's links resolved, and never a link: the OwnersFile is
// in the output folder, which an app's author may write (a dist/ in the app), and a manifest
// there that links to a file outside would have the fence let that file be read (manifest.Load
// refuses such a manifest anyway). A folder that leads out of readRoot, the folder the app's
// build reads, from an output folder inside it is left out (ownerOutside): the build does not
// look there.
func ownerManifests(outDir, readRoot string) []string {
	o, err := readOwners(outDir)
	if err != nil {
		return nil
	}
	absOut, err := realAbs(outDir)
	if err != nil {
		return nil
	}
	var out []string
	for _, rel := range o.Apps {
		if ownerOutside(absOut, rel, readRoot) {
			continue
		}
		dir, err := filepath.EvalSymlinks(filepath.Join(outDir, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		for _, name := range []string{manifest.TOMLName, manifest.JSONName} {
			if st, err := os.Lstat(filepath.Join(dir, name)); err == nil && st.Mode().IsRegular() {
				out = append(out, filepath.Join(dir, name))
			}
		}
	}
	slices.Sort(out)
	return out
}
