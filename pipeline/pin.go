package pipeline

import (
	"fmt"
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
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
