// Package manifest loads and validates a mini app's manifest: miniapp.toml, or manifest.json
// with the same fields.
//
//	m, err := manifest.Load("samples/hello")
//	var el *diag.ListError
//	if errors.As(err, &el) { … }  // every problem, with its line:col and field path, sorted
//
// Validation is strict and kind: an unknown key is an error with "did you mean", every value is
// checked (ids, lengths, origins, hosts, paths that must stay inside the app folder), and every
// problem is reported at once.
package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/internal/rootpath"
)

// Manifest is a validated manifest. Paths (Entry, Icon, Build.PublicDir) are slash-separated and
// relative to Dir.
type Manifest struct {
	ID             string       `json:"id"`
	Name           string       `json:"name"`
	Description    string       `json:"description"`
	Version        string       `json:"version,omitempty"`
	Entry          string       `json:"entry"`
	Icon           string       `json:"icon,omitempty"`
	Capabilities   []Capability `json:"capabilities"`
	AllowedDomains []string     `json:"allowedDomains"`
	LinkDomains    []string     `json:"linkDomains"`
	Hosts          []string     `json:"hosts"`
	DisplayModes   []string     `json:"displayModes"`
	// Wasm lets the page compile WebAssembly (the policy's 'wasm-unsafe-eval'); .wasm imports
	// are inlined.
	Wasm bool `json:"wasm"`
	// Eval lets the page run eval and new Function (the policy's 'unsafe-eval').
	Eval bool `json:"eval"`
	// WebRTC lets the page's code create peer connections (RTCPeerConnection), which send
	// STUN over UDP and resolve names whatever the policy says: the build refuses code that
	// names them without it, and hosts see it in the registry entry.
	WebRTC bool `json:"webrtc"`
	// ResourceDomains, Domain and PrefersBorder go to the MCP Apps resource's _meta.ui: the
	// origins (or data:) the host's policy must allow for images, fonts, styles and media,
	// the dedicated origin the app asks to be framed on, and whether it wants a border.
	ResourceDomains []string `json:"resourceDomains"`
	Domain          string   `json:"domain,omitempty"`
	PrefersBorder   *bool    `json:"prefersBorder,omitempty"`
	MaxKB           int      `json:"maxKB"`
	Build           Build    `json:"build"`

	// File is the manifest's file name as it appears in messages (miniapp.toml or
	// manifest.json, joined to the folder the caller named).
	File string `json:"-"`
	// Dir is the app folder the manifest was loaded from, as the caller named it.
	Dir string `json:"-"`
	// Root is Dir made absolute with its symbolic links resolved: the folder that every path
	// of the app must stay inside.
	Root string `json:"-"`

	// src is the manifest as read, for Message to place a field.
	src []byte
}

// Message returns a diagnostic about the field at path ("hosts", "build.alias"), placed at
// the field's value in the manifest with its line, when the manifest sets it, and otherwise
// naming the file and the field only.
func (m *Manifest) Message(sev diag.Severity, path, text, note string) diag.Message {
	msg := diag.Message{Severity: sev, File: m.File, Path: path, Text: text, Note: note}
	if m.src == nil {
		return msg
	}
	v := &validator{file: m.File, src: m.src, json: strings.HasSuffix(m.File, ".json")}
	if off, n, ok := v.find(path); ok {
		msg.PlaceIn(diag.NewLines(m.src), off, n)
	}
	return msg
}

// Capability is something the app asks the host for; Purpose is the sentence a person reads
// before allowing it.
type Capability struct {
	ID      string `json:"id"`
	Purpose string `json:"purpose"`
}

// Build holds what a Vite user sets in vite.config: the esbuild target, defines, loaders by
// file extension, import aliases and the public folder; and whether imports from a package's
// index of re-exports take each name from its module (Barrels: nil or true), and how a default
// import reads a CommonJS module that sets __esModule (InconsistentCjsInterop).
type Build struct {
	Target    string            `json:"target,omitempty"`
	Define    map[string]string `json:"define,omitempty"`
	Loader    map[string]string `json:"loader,omitempty"`
	Alias     map[string]string `json:"alias,omitempty"`
	PublicDir string            `json:"publicDir,omitempty"`
	Barrels   *bool             `json:"barrels,omitempty"`
	// InconsistentCjsInterop gives a default import, in a file that is an ES module by
	// Node's rules ("type": "module", .mjs, .mts), of a CommonJS module that sets __esModule
	// the module's exports.default, as Babel, TypeScript and Vite 4 to 6 read it, instead of
	// its module.exports, as Node, esbuild and Vite 8 do (Vite 8's
	// legacy.inconsistentCjsInterop).
	InconsistentCjsInterop bool `json:"inconsistentCjsInterop,omitempty"`
}

// RewriteBarrels reports whether imports from a barrel take each name from its own module
// (the default; barrels = false turns it off).
func (b Build) RewriteBarrels() bool { return b.Barrels == nil || *b.Barrels }

// Setting writes key = value in the manifest's own syntax, for a message's fix: TOML
// (hosts = ["…"]; loader = { ".js" = "jsx" } under [build]) or JSON ("hosts": ["…"];
// "build": { "loader": { ".js": "jsx" } }). A key of the [build] table is written
// "build.loader"; value is a string, a bool, a []string, or a map of one key to its string.
func (m *Manifest) Setting(key string, value any) string {
	json := strings.HasSuffix(m.File, ".json")
	var v string
	switch x := value.(type) {
	case string:
		v = strconv.Quote(x)
	case bool:
		v = strconv.FormatBool(x)
	case []string:
		quoted := make([]string, len(x))
		for i, e := range x {
			quoted[i] = strconv.Quote(e)
		}
		v = "[" + strings.Join(quoted, ", ") + "]"
	case map[string]string:
		var pairs []string
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if json {
				pairs = append(pairs, fmt.Sprintf("%q: %q", k, x[k]))
			} else {
				pairs = append(pairs, fmt.Sprintf("%q = %q", k, x[k]))
			}
		}
		v = "{ " + strings.Join(pairs, ", ") + " }"
	}
	table, field, inTable := strings.Cut(key, ".")
	switch {
	case json && inTable:
		return fmt.Sprintf("%q: { %q: %s }", table, field, v)
	case json:
		return fmt.Sprintf("%q: %s", key, v)
	case inTable:
		return fmt.Sprintf("%s = %s under [%s]", field, v, table)
	}
	return key + " = " + v
}

// HasCapability reports whether the manifest asks for the capability id.
func (m *Manifest) HasCapability(id string) bool {
	for _, c := range m.Capabilities {
		if c.ID == id {
			return true
		}
	}
	return false
}

// Limits and defaults.
const (
	DefaultMaxKB      = 512
	MaxMaxKB          = 8192
	MaxNameLen        = 60
	MaxDescriptionLen = 300
	MaxPurposeLen     = 300
	DefaultPublicDir  = "public"
)

// DisplayModes are the MCP Apps display modes an app may declare; the default is inline alone.
var DisplayModes = []string{"inline", "fullscreen", "pip"}

// Names of the manifest files, in the order Load looks for them.
const (
	TOMLName = "miniapp.toml"
	JSONName = "manifest.json"
)

// ErrNotFound is returned (wrapped) by Load when the folder has no manifest.
var ErrNotFound = errors.New("no manifest")

// File returns the manifest of the app folder dir: its miniapp.toml, else its manifest.json
// when that is bundle's (IsBundles); "" when it has neither. other says, for a manifest.json
// that is another format's, which ("a web app manifest (start_url)"): it is a file of the
// app, as in Vite.
func File(dir string) (path, other string) {
	// A link out of the app folder is its manifest whether or not its target exists (Load
	// refuses it, unread): nothing outside is looked at.
	if p := filepath.Join(dir, TOMLName); isFile(p) || isLinkOut(dir, p) {
		return p, ""
	}
	p := filepath.Join(dir, JSONName)
	if _, err := os.Lstat(p); err == nil && confined(dir, p) != nil {
		return p, "" // a link out of the app folder: Load refuses it, unread
	}
	src, err := os.ReadFile(p)
	if err != nil {
		return "", ""
	}
	if ok, other := IsBundles(src); !ok {
		return "", other
	}
	return p, ""
}

// foreignKeys are keys of the formats named manifest.json that are not bundle's, by the
// format that has them.
var foreignKeys = map[string]string{
	"manifest_version": "an MCP bundle's (MCPB) or a browser extension's manifest", "dxt_version": "an MCP bundle's (MCPB) manifest",
	"server": "an MCP bundle's (MCPB) manifest", "author": "an MCP bundle's (MCPB) manifest", "tools": "an MCP bundle's (MCPB) manifest",
	"start_url": "a web app manifest", "icons": "a web app manifest", "short_name": "a web app manifest", "display": "a web app manifest",
	"scope": "a web app manifest", "theme_color": "a web app manifest", "background_color": "a web app manifest",
	"orientation": "a web app manifest", "display_override": "a web app manifest", "shortcuts": "a web app manifest",
	"screenshots": "a web app manifest", "related_applications": "a web app manifest",
	"permissions": "a browser extension's manifest", "content_scripts": "a browser extension's manifest", "background": "a browser extension's manifest",
}

// ownKeys are keys only bundle's manifest has, besides id.
var ownKeys = []string{"id", "entry", "icon", "maxKB", "allowedDomains", "linkDomains", "hosts", "displayModes", "capabilities",
	"wasm", "eval", "resourceDomains", "domain", "prefersBorder", "build", "webrtc"}

// IsBundles reports whether the manifest.json src is bundle's manifest: an object with one
// of bundle's own fields (id, entry, hosts, …) and none of another format's
// (manifest_version, start_url, icons, …). other names the format it is when it is not.
// Text that is not a JSON object is taken for bundle's, whose parse then says what is wrong.
func IsBundles(src []byte) (ok bool, other string) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimPrefix(src, []byte("\uFEFF")), &obj) != nil {
		return true, ""
	}
	keys := slices.Sorted(maps.Keys(obj))
	for _, k := range keys {
		if f, ok := foreignKeys[k]; ok {
			return false, fmt.Sprintf("%s (%s)", f, k)
		}
	}
	for _, k := range keys {
		if slices.Contains(ownKeys, k) {
			return true, ""
		}
	}
	return false, "not bundle's: it has none of bundle's fields (id, entry, hosts, …)"
}

// Load reads and validates the manifest in the app folder dir: miniapp.toml, or else a
// manifest.json that is bundle's (File). A manifest with problems returns a *diag.ListError
// (use errors.As) listing every problem; other errors are I/O failures.
func Load(dir string) (*Manifest, error) { return LoadEntry(dir, "") }

// LoadEntry is Load with entry (a path in the app folder, such as "site/index.html") the
// entry of a manifest that names none, in place of index.html: a Vite app whose vite.config
// sets root has its page there.
func LoadEntry(dir, entry string) (*Manifest, error) {
	path, other := File(dir)
	if path == "" && other != "" {
		return nil, fmt.Errorf("%w in %s: its %s is %s, a file of the app; write a %s with an id, a name and a description", ErrNotFound, dir, JSONName, other, TOMLName)
	}
	for _, name := range []string{TOMLName, JSONName} {
		if path != filepath.Join(dir, name) {
			continue
		}
		// Read only inside the app folder: a manifest that a link leads out of it is
		// refused before it is read, and none of its lines is shown.
		if err := confined(dir, path); err != nil {
			return nil, err
		}
		src, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read manifest %s: %w", path, err)
		}
		// As Vite does, an app without an entry is its index.html.
		def := ""
		if isFile(filepath.Join(dir, "index.html")) {
			def = "index.html"
		}
		if entry != "" && isFile(filepath.Join(dir, filepath.FromSlash(entry))) {
			def = entry
		}
		folder := dir
		if abs, err := filepath.Abs(dir); err == nil {
			folder = abs
		}
		m, list := parse(path, src, def, filepath.Base(folder))
		if err := list.Err(); err != nil {
			return nil, err
		}
		m.Dir = dir
		if m.Root, err = rootOf(dir); err != nil {
			return nil, fmt.Errorf("read app folder %s: %w", dir, err)
		}
		if list := checkFiles(m, src); list.Err() != nil {
			return nil, list.Err()
		}
		return m, nil
	}
	return nil, fmt.Errorf("%w in %s: write a %s (bundle init writes an app) or a %s", ErrNotFound, dir, TOMLName, JSONName)
}

// ReadFile reads the manifest at path, a file of the app folder dir, as Load reads it: one
// that a symbolic link leads out of dir is refused before it is read (a *diag.ListError
// naming it), so that no message shows a line of a file outside.
func ReadFile(dir, path string) ([]byte, error) {
	if err := confined(dir, path); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

// confined returns an error naming the manifest at path when it leads (through a symbolic
// link) out of the app folder dir.
func confined(dir, path string) error {
	root, err := rootOf(dir)
	if err != nil {
		return fmt.Errorf("read app folder %s: %w", dir, err)
	}
	// Where the link leads decides, not whether its target exists: nothing outside is looked
	// at. The manifest is in the app folder as named (which may be a link): it is the same
	// name in its real folder.
	if _, err := rootpath.Resolve(filepath.Join(root, filepath.Base(path)), root); errors.Is(err, rootpath.ErrOutside) {
		return diag.List{{File: path, Text: fmt.Sprintf("%s is a symbolic link to a file outside the app folder", filepath.Base(path)),
			Note: "bundle reads only files inside the app folder: copy the manifest in instead of linking to it"}}.Err()
	}
	return nil
}

// isLinkOut reports whether p, in the app folder dir, is a symbolic link that leads out of it.
func isLinkOut(dir, p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.Mode()&fs.ModeSymlink != 0 && confined(dir, p) != nil
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
