package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/registry"
)

// SchemaVersion is the version of the registry entry's format.
const SchemaVersion = registry.SchemaVersion

// Entry is the registry entry that pins a bundle (registry.Entry).
type Entry = registry.Entry

// pin computes the entry of page.
func pin(m *manifest.Manifest, page []byte, csp, icon string) Entry {
	caps := make([]registry.Capability, len(m.Capabilities))
	for i, c := range m.Capabilities {
		caps[i] = registry.Capability{ID: c.ID, Purpose: c.Purpose}
	}
	e := Entry{
		SchemaVersion: SchemaVersion, ID: m.ID, Name: m.Name, Description: m.Description,
		Version: m.Version, File: m.ID + ".html",
		CSP: csp, Capabilities: caps, AllowedDomains: m.AllowedDomains,
		LinkDomains: m.LinkDomains, Hosts: m.Hosts, DisplayModes: m.DisplayModes, Wasm: m.Wasm, Eval: m.Eval, WebRTC: m.WebRTC, Icon: icon,
		URI: "ui://" + m.ID, MIMEType: registry.ResourceMIMEType,
		Meta: registry.ResourceMeta{UI: registry.UIMeta{
			CSP:    registry.UICSP{ConnectDomains: m.AllowedDomains, ResourceDomains: m.ResourceDomains},
			Domain: m.Domain, PrefersBorder: m.PrefersBorder,
		}},
	}
	e.Pin(page)
	return e
}

// MarshalEntry renders an entry as the registry file holds it: indented JSON with a final
// newline, HTML characters unescaped.
func MarshalEntry(e Entry) ([]byte, error) { return registry.Marshal(e) }

// writeAtomic writes data to path through a temporary file in the same folder and a rename,
// so that a reader (or a failed build) never sees a partial file.
func writeAtomic(path string, data []byte) error { return writeAll([]outFile{{path, data}}) }

// outFile is a file to write, or with nil data to remove.
type outFile struct {
	path string
	data []byte
}

// writeAll writes files, each to a temporary name in its folder, then, all written, renames
// them into place in order, and removes those with nil data. A file that cannot be written
// leaves every path as it was. A rename replaces what is at the path, a symbolic link
// included, and never writes through it.
func writeAll(files []outFile) error {
	tmps := make([]string, len(files))
	clean := func() {
		for _, t := range tmps {
			if t != "" {
				os.Remove(t)
			}
		}
	}
	for i, f := range files {
		if f.data == nil {
			continue
		}
		tmp, err := tempFile(f.path, f.data)
		if err != nil {
			clean()
			return fmt.Errorf("write %s: %w", f.path, err)
		}
		tmps[i] = tmp
	}
	for i, f := range files {
		if f.data == nil {
			if err := os.Remove(f.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				clean()
				return err
			}
			continue
		}
		if err := os.Rename(tmps[i], f.path); err != nil {
			clean()
			return fmt.Errorf("write %s: %w", f.path, err)
		}
		tmps[i] = ""
	}
	return nil
}

// tempFile writes data to a new file beside path, readable by all, and returns its name.
func tempFile(path string, data []byte) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err != nil {
		os.Remove(tmp)
		return "", err
	}
	return tmp, nil
}
