// Package registry owns the contract between bundle build and the hosts that serve its
// output: the registry entry that pins one bundle (Entry), the registry that lists the
// bundles of a folder (Registry, registry.json), and the MCP Apps UI resource a bundle is
// served as (Resource). It depends on nothing but the standard library, so a host written in
// Go imports it without the build.
package registry

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/miniapp/bundle/internal/rootpath"
)

// SchemaVersion is the version of the entry's and the registry's format.
const SchemaVersion = 1

// ResourceMIMEType is the MIME type of an MCP Apps HTML resource.
const ResourceMIMEType = "text/html;profile=mcp-app"

// FileName is the registry's file name in an output folder.
const FileName = "registry.json"

// Entry is the registry entry that pins a bundle: a host serves File only when its SHA-256
// matches, and sends CSP as a header too (frame-ancestors cannot live in a meta tag).
type Entry struct {
	SchemaVersion int    `json:"schema_version"`
	ID            string `json:"id"`
	Name          string `json:"name"`
	Description   string `json:"description"`
	Version       string `json:"version"`
	File          string `json:"file"`
	Bytes         int    `json:"bytes"`
	SHA256        string `json:"sha256"`
	Integrity     string `json:"integrity"`
	CSP           string `json:"csp"`
	// Capabilities are what the app asks the host for, each with the sentence a person
	// reads before allowing it.
	Capabilities   []Capability `json:"capabilities"`
	AllowedDomains []string     `json:"allowedDomains"`
	LinkDomains    []string     `json:"linkDomains"`
	Hosts          []string     `json:"hosts"`
	// DisplayModes are the MCP Apps display modes the app declares.
	DisplayModes []string `json:"displayModes"`
	// Wasm and Eval say what the policy lets the page compile and run: WebAssembly
	// ('wasm-unsafe-eval') and eval or new Function ('unsafe-eval').
	Wasm bool `json:"wasm"`
	Eval bool `json:"eval"`
	// WebRTC says the app may open WebRTC peer connections, which no policy directive
	// governs (they reach any address over UDP): a host that cannot allow that should not
	// serve it.
	WebRTC bool   `json:"webrtc"`
	Icon   string `json:"icon"`
	// URI and MIMEType name the bundle as an MCP Apps UI resource (ui://<id>), and Meta is
	// the resource's _meta: what an MCP server sends with it, unchanged.
	URI      string       `json:"uri"`
	MIMEType string       `json:"mimeType"`
	Meta     ResourceMeta `json:"_meta"`
}

// Capability is something the app asks the host for.
type Capability struct {
	ID      string `json:"id"`
	Purpose string `json:"purpose"`
}

// ResourceMeta is an MCP Apps resource's _meta.
type ResourceMeta struct {
	UI UIMeta `json:"ui"`
}

// UIMeta is _meta.ui: the policy a host builds for the frame, and how it shows it.
type UIMeta struct {
	CSP UICSP `json:"csp"`
	// Domain is the dedicated origin the app asks to be framed on (host-specific).
	Domain string `json:"domain,omitempty"`
	// PrefersBorder asks for a visible border and background; nil leaves it to the host.
	PrefersBorder *bool `json:"prefersBorder,omitempty"`
}

// UICSP is _meta.ui.csp: the origins the host's policy must allow.
type UICSP struct {
	// ConnectDomains are the manifest's allowedDomains (connect-src).
	ConnectDomains []string `json:"connectDomains"`
	// ResourceDomains are the manifest's resourceDomains (img-src, font-src, style-src,
	// script-src, media-src in the host's policy).
	ResourceDomains []string `json:"resourceDomains,omitempty"`
}

// Pin fills the entry's size and hashes from page.
func (e *Entry) Pin(page []byte) {
	sum := sha256.Sum256(page)
	e.Bytes = len(page)
	e.SHA256 = hex.EncodeToString(sum[:])
	e.Integrity = "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// Marshal renders a value as registry files hold it: indented JSON with a final newline, HTML
// characters unescaped.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ReadEntry reads and checks a registry entry file.
//
// The entry must be in the folder it is named in, its links resolved (the folder of the page
// it names): one that is a symbolic link out of it is refused, not read, as registry.json
// is (Read). No error quotes the file.
func ReadEntry(path string) (Entry, error) {
	b, err := readInFolder(path)
	if err != nil {
		return Entry{}, err
	}
	return ParseEntry(path, b)
}

// ParseEntry decodes a registry entry read from name and checks that it is one: a known schema
// version, an id, a file name, a 64-hex SHA-256.
func ParseEntry(name string, b []byte) (Entry, error) {
	var e Entry
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&e); err != nil {
		return Entry{}, fmt.Errorf("%s is not a registry entry: %s", name, jsonProblem(b, err))
	}
	if err := e.valid(); err != nil {
		return Entry{}, fmt.Errorf("%s: %v", name, err)
	}
	return e, nil
}

func (e *Entry) valid() error {
	switch {
	case e.SchemaVersion != SchemaVersion:
		return fmt.Errorf("schema_version %d is not %d; rebuild with this bundle", e.SchemaVersion, SchemaVersion)
	case e.ID == "" || e.File == "":
		return errors.New("not a registry entry: no id or file")
	case strings.ContainsAny(e.File, `/\`) || e.File == "." || e.File == "..":
		return errors.New("its file is not a file name (one without / or \\, nor . or ..)")
	case len(e.SHA256) != 64 || strings.Trim(e.SHA256, "0123456789abcdef") != "":
		return errors.New("its sha256 is not 64 lower-case hex digits")
	}
	return nil
}

// Registry lists the bundles of one folder, keyed by id: registry.json.
type Registry struct {
	SchemaVersion int              `json:"schema_version"`
	Apps          map[string]Entry `json:"apps"`
}

// Folder builds the registry of the output folder dir from the entries in it: every <id>.json
// that is a registry entry of that id whose page is there. Registry files, other JSON and
// symbolic links are left out.
func Folder(dir string) (*Registry, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	r := &Registry{SchemaVersion: SchemaVersion, Apps: map[string]Entry{}}
	for _, p := range names {
		if filepath.Base(p) == FileName {
			continue
		}
		if st, err := os.Lstat(p); err != nil || !st.Mode().IsRegular() {
			continue // a link is not read: it may lead out of the folder
		}
		e, err := ReadEntry(p)
		if err != nil || e.ID+".json" != filepath.Base(p) {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, e.File)); err != nil {
			continue
		}
		r.Apps[e.ID] = e
	}
	return r, nil
}

// Read reads registry.json. Each app's key must be its id.
//
// registry.json must be in the folder it lists, its links resolved: one that is a symbolic
// link out of it is refused, not read (a bundle's folder handed to bundle serve or bundle
// verify may hold a link to a file of the machine's; its text is in no message).
func Read(path string) (*Registry, error) {
	b, err := readInFolder(path)
	if err != nil {
		return nil, err
	}
	var r Registry
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s is not a registry: %s", path, jsonProblem(b, err))
	}
	if r.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("%s: schema_version %d is not %d; rebuild with this bundle", path, r.SchemaVersion, SchemaVersion)
	}
	for id, e := range r.Apps {
		if err := e.valid(); err != nil {
			return nil, fmt.Errorf("%s: apps.%s: %v", path, id, err)
		}
		if e.ID != id {
			return nil, fmt.Errorf("%s: apps.%s holds the entry of %q", path, id, e.ID)
		}
	}
	return &r, nil
}

// readInFolder reads the file at path when it is, its links resolved, in the folder path
// names it in. The links are followed by the path checks' resolver, which looks at nothing
// outside the folder: one that leads out is refused with the same message whether or not the
// file it leads to is there (EvalSymlinks looked, and a link to no file was "not there").
func readInFolder(path string) ([]byte, error) {
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err == nil {
		dir, err = filepath.Abs(dir)
	}
	if err != nil {
		return nil, err
	}
	real, err := rootpath.Resolve(filepath.Join(dir, filepath.Base(path)), dir)
	if errors.Is(err, rootpath.ErrOutside) {
		return nil, fmt.Errorf("%s is a symbolic link out of its folder, which bundle does not read: keep a registry file in the folder of the pages it names, as bundle build writes it", path)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.Unwrap(err)}
	}
	return os.ReadFile(real)
}

// jsonProblem says what err, from decoding b, found wrong, with the place, and quotes nothing
// of b (encoding/json's messages quote the character or the number that broke it): the file
// may be a symbolic link to one that is not the caller's, whose text no message shows.
func jsonProblem(b []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := place(b, se.Offset-1)
		return fmt.Sprintf("not JSON at line %d, column %d", line, col)
	case errors.As(err, &te):
		line, col := place(b, te.Offset-1)
		what := "the whole file"
		if te.Field != "" {
			what = te.Field
		}
		return fmt.Sprintf("%s is not %s (the value ending at line %d, column %d)", what, jsonKind(te.Type.Kind().String()), line, col)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "the JSON ends before its value does"
	}
	return "not JSON"
}

// jsonKind names the JSON value a Go value of kind decodes from.
func jsonKind(kind string) string {
	switch {
	case strings.HasPrefix(kind, "int"), strings.HasPrefix(kind, "uint"), strings.HasPrefix(kind, "float"):
		return "a number that fits"
	case kind == "string":
		return "a string"
	case kind == "bool":
		return "true or false"
	case kind == "slice", kind == "array":
		return "an array"
	}
	return "an object"
}

// place returns the 1-based line and column (in bytes) of the offset off in b.
func place(b []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(b)))
	head := b[:off]
	line = bytes.Count(head, []byte("\n")) + 1
	return line, len(head) - (bytes.LastIndexByte(head, '\n') + 1) + 1
}

// IDs returns the registry's ids, sorted.
func (r *Registry) IDs() []string {
	ids := make([]string, 0, len(r.Apps))
	for id := range r.Apps {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// ResourceContents is one item of an MCP resources/read result's contents.
type ResourceContents struct {
	URI      string       `json:"uri"`
	MIMEType string       `json:"mimeType"`
	Text     string       `json:"text"`
	Meta     ResourceMeta `json:"_meta"`
}

// ReadResourceResult is the result of an MCP resources/read request.
type ReadResourceResult struct {
	Contents []ResourceContents `json:"contents"`
}

// Resource returns the resources/read result that serves page as the MCP Apps UI resource of
// its entry, unchanged. It fails when page is not the file the entry pins.
func Resource(page []byte, e Entry) (ReadResourceResult, error) {
	sum := sha256.Sum256(page)
	if got := hex.EncodeToString(sum[:]); got != e.SHA256 {
		return ReadResourceResult{}, fmt.Errorf("%s: the page's SHA-256 is %s, the entry pins %s", e.File, got, e.SHA256)
	}
	uri, mime := e.URI, e.MIMEType
	if uri == "" {
		uri = "ui://" + e.ID
	}
	if mime == "" {
		mime = ResourceMIMEType
	}
	return ReadResourceResult{Contents: []ResourceContents{{URI: uri, MIMEType: mime, Text: string(page), Meta: e.Meta}}}, nil
}
