package pipeline

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/miniapp/bundle/manifest"
)

// SchemaVersion is the version of the registry entry's format.
const SchemaVersion = 1

// Entry is the registry entry that pins a bundle: a host serves <File> only when its SHA-256
// matches, and sends CSP as a header too (frame-ancestors cannot live in a meta tag).
type Entry struct {
	SchemaVersion  int                   `json:"schema_version"`
	ID             string                `json:"id"`
	Name           string                `json:"name"`
	Description    string                `json:"description"`
	Version        string                `json:"version"`
	File           string                `json:"file"`
	Bytes          int                   `json:"bytes"`
	SHA256         string                `json:"sha256"`
	Integrity      string                `json:"integrity"`
	CSP            string                `json:"csp"`
	Capabilities   []manifest.Capability `json:"capabilities"`
	AllowedDomains []string              `json:"allowedDomains"`
	LinkDomains    []string              `json:"linkDomains"`
	Hosts          []string              `json:"hosts"`
	// DisplayModes are the MCP Apps display modes the app declares.
	DisplayModes []string `json:"displayModes"`
	// Wasm and Eval say what the policy lets the page compile and run: WebAssembly
	// ('wasm-unsafe-eval') and eval or new Function ('unsafe-eval').
	Wasm bool   `json:"wasm"`
	Eval bool   `json:"eval"`
	Icon string `json:"icon"`
}

// pin computes the entry of page.
func pin(m *manifest.Manifest, page []byte, csp, icon string) Entry {
	sum := sha256.Sum256(page)
	return Entry{
		SchemaVersion: SchemaVersion, ID: m.ID, Name: m.Name, Description: m.Description,
		Version: m.Version, File: m.ID + ".html", Bytes: len(page),
		SHA256:    hex.EncodeToString(sum[:]),
		Integrity: "sha256-" + base64.StdEncoding.EncodeToString(sum[:]),
		CSP:       csp, Capabilities: m.Capabilities, AllowedDomains: m.AllowedDomains,
		LinkDomains: m.LinkDomains, Hosts: m.Hosts, DisplayModes: m.DisplayModes, Wasm: m.Wasm, Eval: m.Eval, Icon: icon,
	}
}

// MarshalEntry renders an entry as the registry file holds it: indented JSON with a final
// newline, HTML characters unescaped.
func MarshalEntry(e Entry) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(e); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func gzipSize(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}

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
