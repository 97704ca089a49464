// Package pin makes a bundle of one HTML page that no build wrote (a model's, which a host
// accepts as it is), with the guarantees of bundle build.
//
//	res, err := pin.Page(ctx, "weather.html", pin.Options{ID: "weather", Name: "Weather", Description: "…"})
//	var el *diag.ListError
//	switch {
//	case errors.As(err, &el): // refused: el.List says where in the page, and what to write instead
//	case err != nil:          // the page could not be read, or the tool failed
//	default:                  // res.HTMLPath, res.EntryPath, res.Entry.SHA256
//	}
//
// Page checks the page as bundle check --single-file does (every place that would load from
// outside it, event-handler attributes, javascript: URLs, requests to origins the manifest
// does not grant), each refused at its place with a note for someone who can change only
// that page. Then it builds it with package pipeline, the build itself, from a folder that
// holds the page and its manifest alone: the SDK put in (unless Options.NoSDK), the policy
// hashing every inline script, the final bytes checked again, pinned by SHA-256, the
// registry entry and registry.json written.
//
// # Guarantees
//
// Those of pipeline.Build, for the page's bytes: what Page writes passes bundle verify, and
// the same page and manifest give the same bytes. The manifest comes from Options, or from
// the miniapp.toml (or manifest.json) beside the page, whose entry is the page; nothing else
// beside the page is read but the icon that manifest names, resolved in the page's folder as
// bundle build resolves an app's (a symbolic link out of it refused unread). The page's folder
// is the app's: a page, or a manifest, that a symbolic link leads out of it is refused unread.
package pin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/internal/rootpath"
	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/offline"
	"github.com/miniapp/bundle/pipeline"
)

// Options configures Page. The fields from ID to DisplayModes are the manifest's, for a page
// with no manifest beside it; the zero value uses the manifest beside the page.
type Options struct {
	ID, Name, Description, Version     string
	Hosts, LinkDomains, AllowedDomains []string
	// OutDir is where the page, its entry and registry.json are written; "" is dist beside
	// the page.
	OutDir string
	// NoSDK leaves the SDK out: the page cannot talk to its host.
	NoSDK bool
	// NoWrite computes everything and writes nothing.
	NoWrite bool
	// Confine, when set, is called just before the build with the folder it builds from and
	// its options, and returns the options to build with: bundle pin fences its process
	// there (pipeline.Fence), as bundle build does. The page and its manifest are read by
	// then.
	Confine func(dir string, o pipeline.Options) (pipeline.Options, error)
}

// HasManifest reports whether the options give a manifest's fields.
func (o Options) HasManifest() bool {
	return o.ID != "" || o.Name != "" || o.Description != "" || o.Version != "" ||
		len(o.Hosts) > 0 || len(o.LinkDomains) > 0 || len(o.AllowedDomains) > 0
}

// Flags names the flag of bundle pin that gives each manifest field, for messages about a
// manifest made from Options.
var Flags = map[string]string{"id": "--id", "name": "--name", "description": "--description", "version": "--version",
	"hosts": "--hosts", "linkDomains": "--link-domains", "allowedDomains": "--allowed-domains"}

// Page pins the page at path. It returns a *diag.ListError (errors.As) when the page or its
// manifest is refused, each message placed in the page or the manifest (or naming the
// option, Flags); other errors mean a file could not be read or written, or the tool failed.
func Page(ctx context.Context, path string, opts Options) (*pipeline.Result, error) {
	dir := filepath.Dir(path)
	page, err := readPage(dir, path)
	if err != nil {
		return nil, err
	}
	beside, _ := manifest.File(dir)
	if beside != "" && opts.HasManifest() {
		return nil, diag.List{{File: beside, Severity: diag.Error,
			Text: fmt.Sprintf("%s has a manifest beside it, and the options give another", filepath.Base(path)),
			Note: "edit " + beside + ", or give the options for a page with no manifest beside it"}}.Err()
	}
	if beside == "" && !opts.HasManifest() {
		return nil, diag.List{{File: path, Severity: diag.Error,
			Text: fmt.Sprintf("%s has no manifest: its id, name and description are what the host tells the model", filepath.Base(path)),
			Note: "give --id, --name and --description (and --hosts, the origins that may embed it), or write a miniapp.toml beside the page"}}.Err()
	}

	// The page's folder is the app's: a dist beside the page that links out of it is refused
	// before anything is removed or written there, as bundle build refuses an app's.
	if _, err := pipeline.OutputDir(dir, pipeline.Options{OutDir: opts.OutDir}); err != nil {
		return nil, err
	}
	out := opts.OutDir
	if out == "" {
		out = filepath.Join(dir, "dist")
	}
	// The app folder of the build: the page and its manifest, nothing else, in the output
	// folder under a fixed name, so that .bundle-apps.json names it the same on every run
	// (and, once it is removed, frees the id for the next).
	tmp := filepath.Join(out, workDir)
	if opts.NoWrite {
		if tmp, err = os.MkdirTemp("", "bundle-pin-"); err != nil {
			return nil, err
		}
	} else if err := os.RemoveAll(tmp); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	base := filepath.Base(path)
	names := map[string]string{filepath.Join(tmp, base): path}
	for _, name := range []string{base, "index.html"} {
		// index.html too: a manifest beside that names no entry has the page as its entry.
		if err := os.WriteFile(filepath.Join(tmp, name), page, 0o644); err != nil {
			return nil, err
		}
		names[filepath.Join(tmp, name)] = path
	}
	fromFlags := beside == ""
	if fromFlags {
		if err := writeManifest(filepath.Join(tmp, manifest.JSONName), base, opts); err != nil {
			return nil, err
		}
	} else {
		// The page's folder is the app's: a manifest a link leads out of it is refused
		// unread, as bundle build refuses an app's.
		src, err := manifest.ReadFile(dir, beside)
		var el *diag.ListError
		if errors.As(err, &el) {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", beside, err)
		}
		if err := os.WriteFile(filepath.Join(tmp, filepath.Base(beside)), src, 0o644); err != nil {
			return nil, err
		}
		names[filepath.Join(tmp, filepath.Base(beside))] = beside
		if err := copyIcon(dir, tmp, beside, src, names); err != nil {
			return nil, err
		}
	}
	m, err := manifest.Load(tmp)
	if err != nil {
		return nil, relocate(err, names, fromFlags)
	}

	// The check a host's filter runs, with the manifest's links and connections: a place it
	// refuses is said in the page, with a note for one file.
	fs, err := offline.Check(path, page, offline.Options{SingleFile: true, LinkDomains: m.LinkDomains, AllowedDomains: m.AllowedDomains,
		FileSize: offline.SizesBeside(dir)})
	if err != nil {
		return nil, err
	}
	if len(fs) > 0 {
		return nil, fs.Diagnostics().Err()
	}

	bopts := pipeline.Options{OutDir: out, NoSDK: opts.NoSDK, NoWrite: opts.NoWrite}
	if opts.Confine != nil {
		if bopts, err = opts.Confine(tmp, bopts); err != nil {
			return nil, err
		}
	}
	res, err := pipeline.Build(ctx, tmp, bopts)
	if err != nil {
		return nil, relocate(err, names, fromFlags)
	}
	res.Warnings = relocateList(res.Warnings, names, fromFlags)
	if !opts.NoWrite {
		if _, err := pipeline.WriteRegistry(out); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// readPage reads the page at path, in its folder dir (the app's), refusing unread a page that
// a symbolic link leads out of dir, as bundle build refuses an entry that leaves the app: where
// the link leads decides, by the path checks' resolver, which looks at nothing outside, so the
// message is the same whether or not the file outside is there.
func readPage(dir, path string) ([]byte, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err == nil {
		root, err = filepath.Abs(root)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	// The page is in its folder as named (which may be a link): the same name in the real one.
	if _, err := rootpath.Resolve(filepath.Join(root, filepath.Base(path)), root); errors.Is(err, rootpath.ErrOutside) {
		return nil, diag.List{{File: path, Severity: diag.Error, Text: fmt.Sprintf("%s is a symbolic link to a file outside its folder", filepath.Base(path)),
			Note: "bundle reads only files inside the page's folder (the app's): copy the page in instead of linking to it"}}.Err()
	}
	page, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return page, nil
}

// copyIcon copies the icon the manifest beside the page names (src, read from beside) into
// the build's folder tmp: its path is the page's folder's, dir, not the build's, resolved by
// the manifest's own resolver there (a path or link that leads out of dir is refused at the
// manifest's icon field, whether or not its target exists). A missing icon is left to the
// build's manifest check, whose message names the file in dir (names).
func copyIcon(dir, tmp, beside string, src []byte, names map[string]string) error {
	pm, _ := manifest.Parse(beside, src)
	if pm == nil || pm.Icon == "" {
		return nil
	}
	rel := filepath.FromSlash(pm.Icon)
	names[filepath.Join(tmp, rel)] = filepath.Join(dir, rel)
	root, err := filepath.EvalSymlinks(dir)
	if err == nil {
		root, err = filepath.Abs(root)
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", dir, err)
	}
	pm.Dir, pm.Root = dir, root
	p, err := pm.Resolve(pm.Icon)
	switch {
	case errors.Is(err, manifest.ErrOutside):
		return diag.List{pm.Message(diag.Error, "icon", fmt.Sprintf("icon %q %s", pm.Icon, strings.TrimPrefix(err.Error(), pm.Icon+": ")),
			"keep every file the app uses inside its folder")}.Err()
	case err != nil:
		return nil
	}
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		// The build's check says it is a folder.
		return os.MkdirAll(filepath.Join(tmp, rel), 0o755)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("read %s: %w", filepath.Join(dir, rel), err)
	}
	if err := os.MkdirAll(filepath.Dir(filepath.Join(tmp, rel)), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(tmp, rel), b, 0o644)
}

// workDir is the folder in the output folder that Page builds from, and removes.
const workDir = ".bundle-pin"

// writeManifest writes the manifest the options give, as manifest.json.
func writeManifest(path, entry string, o Options) error {
	m := map[string]any{"id": o.ID, "name": o.Name, "description": o.Description, "entry": entry}
	if o.Version != "" {
		m["version"] = o.Version
	}
	for key, v := range map[string][]string{"hosts": o.Hosts, "linkDomains": o.LinkDomains, "allowedDomains": o.AllowedDomains} {
		if len(v) > 0 {
			m[key] = v
		}
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// relocate places the messages of a refusal in the files the caller named, not in the build's
// folder.
func relocate(err error, names map[string]string, fromFlags bool) error {
	var el *diag.ListError
	if !errors.As(err, &el) {
		for tmp, real := range names {
			if s := err.Error(); strings.Contains(s, filepath.Dir(tmp)) {
				return errors.New(strings.ReplaceAll(s, tmp, real))
			}
		}
		return err
	}
	return relocateList(el.List, names, fromFlags).Err()
}

func relocateList(l diag.List, names map[string]string, fromFlags bool) diag.List {
	out := make(diag.List, 0, len(l))
	for _, m := range l {
		file := filepath.FromSlash(m.File)
		if real, ok := names[file]; ok {
			m.File = real
		} else if fromFlags && filepath.Base(file) == manifest.JSONName {
			// A manifest made from the options: name the option.
			field, _, _ := strings.Cut(m.Path, ".")
			flag := Flags[field]
			if flag == "" {
				flag = "the options"
			}
			m.File, m.Line, m.Column, m.Length, m.LineText = "bundle pin "+flag, 0, 0, 0, ""
			m.Note = strings.ReplaceAll(m.Note, manifest.JSONName, "the options")
		}
		for tmp, real := range names {
			m.Text = strings.ReplaceAll(m.Text, tmp, real)
			m.Note = strings.ReplaceAll(m.Note, tmp, real)
		}
		out = append(out, m)
	}
	return out
}
