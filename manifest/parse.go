package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/miniapp/bundle/diag"
	"golang.org/x/net/publicsuffix"
)

// Parse parses and validates a manifest read from file (TOML, or JSON when the name ends in
// .json). It returns the manifest with defaults filled in, and every problem found; the
// manifest is nil when the syntax is broken. Parse does not look at the file system, so an
// entry is required (Load takes index.html for one left out, as Vite does, when the folder
// has it).
func Parse(file string, src []byte) (*Manifest, diag.List) {
	return parse(file, src, "", filepath.Base(filepath.Dir(file)))
}

// parse is Parse with the entry taken when the manifest names none (none: required), and
// folder the app folder's name, which the advice for a missing id and name is made from.
func parse(file string, src []byte, defaultEntry, folder string) (*Manifest, diag.List) {
	// A byte-order mark, as Windows editors write, is not part of either format's text.
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	v := &validator{file: file, src: src, lines: diag.NewLines(src), defaultEntry: defaultEntry, folder: folder}
	var raw map[string]any
	if strings.HasSuffix(strings.ToLower(file), ".json") {
		v.json = true
		if len(bytes.TrimSpace(src)) == 0 {
			v.errAtOffset(0, 1, "", "manifest.json is empty", `write a JSON object: {"id": "my-app", "name": "My App", "description": "…", "entry": "index.html"}`)
			return nil, v.list
		}
		dec := json.NewDecoder(bytes.NewReader(src))
		dec.UseNumber()
		err := dec.Decode(&raw)
		if err == nil && dec.More() {
			off := int(dec.InputOffset())
			v.errAtOffset(off+len(src[off:])-len(bytes.TrimLeft(src[off:], " \t\r\n")), 1, "", "invalid JSON: more after the manifest's closing }", "a manifest.json holds one object: remove what follows it")
			return nil, v.list
		}
		if err != nil {
			v.jsonError(err)
			return nil, v.list
		}
		if raw == nil {
			v.errAtOffset(0, 1, "", "manifest.json is null, not an object", `write a JSON object: {"id": "my-app", …}`)
			return nil, v.list
		}
	} else {
		if _, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&raw); err != nil {
			var pe toml.ParseError
			if errors.As(err, &pe) {
				note := pe.Usage
				if note == "" {
					note = "fix the TOML syntax: key = \"value\", one per line"
				}
				v.errAtOffset(pe.Position.Start, max(pe.Position.Len, 1), "", "invalid TOML: "+pe.Message, strings.TrimSpace(note))
			} else {
				v.errAtOffset(0, 1, "", "invalid TOML: "+err.Error(), "fix the TOML syntax")
			}
			return nil, v.list
		}
	}
	m := v.validate(raw)
	if m != nil {
		m.src = src
	}
	v.list.Sort()
	return m, v.list
}

// validator collects the problems of one manifest.
type validator struct {
	file  string
	src   []byte
	lines *diag.Lines
	json  bool
	list  diag.List
	// defaultEntry is the entry of a manifest that names none ("": the field is required).
	defaultEntry string
	// folder is the app folder's name ("" or "." when not known), which a missing id's advice
	// is made from, as bundle init names an app.
	folder string
}

// jsonError reports a JSON syntax error at the character that broke it, in plain words.
func (v *validator) jsonError(err error) {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := len(v.src)
	switch {
	case errors.As(err, &se):
		off = int(se.Offset) - 1
	case errors.As(err, &te):
		v.errAtOffset(0, 1, "", "manifest.json is not an object", `a manifest.json is one JSON object: {"id": "my-app", …}`)
		return
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		v.errAtOffset(max(len(bytes.TrimRight(v.src, " \t\r\n"))-1, 0), 1, "", "invalid JSON: the file ends before the object does", "close every { and [ and string it opens")
		return
	}
	off = min(max(off, 0), max(len(v.src)-1, 0))
	// The character before the offending one, spaces skipped: a comma there is a trailing
	// comma, which JSON does not allow.
	prev := off - 1
	for prev >= 0 && strings.IndexByte(" \t\r\n", v.src[prev]) >= 0 {
		prev--
	}
	if off < len(v.src) && (v.src[off] == '}' || v.src[off] == ']') && prev >= 0 && v.src[prev] == ',' {
		v.errAtOffset(prev, 1, "", "invalid JSON: a trailing comma before "+string(v.src[off]), "remove the comma: JSON allows none after the last item")
		return
	}
	text := se.Error()
	switch {
	case strings.Contains(text, "looking for beginning of object key string"):
		text = "a key must be a string in double quotes"
		if v.src[off] == '\'' {
			text = "strings in JSON take double quotes, not single"
		}
	case strings.Contains(text, "after object key:value pair"):
		text = "a comma is missing between two fields"
		if prev >= 0 {
			off = prev + 1
		}
	case strings.Contains(text, "after array element"):
		text = "a comma is missing between two items"
		if prev >= 0 {
			off = prev + 1
		}
	case strings.Contains(text, "in string literal"):
		text = "a string holds a character JSON does not allow (a raw newline or tab: write \\n, \\t)"
	case strings.Contains(text, "looking for beginning of value"):
		text = "a value is missing or is not JSON (strings take double quotes; true, false and null are lower-case)"
	}
	v.errAtOffset(off, 1, "", "invalid JSON: "+text, "fix the syntax; the manifest is a JSON object with the fields listed in the README")
}

func (v *validator) errAtOffset(off, n int, path, msg, note string) {
	m := diag.Message{File: v.file, Path: path, Text: msg, Note: note}
	m.PlaceIn(v.lines, off, n)
	v.list = append(v.list, m)
}

// err reports a problem with the value at the field path p (for example
// "capabilities[1].purpose").
func (v *validator) err(p, msg, note string) {
	off, n := v.locate(p, true)
	v.errAtOffset(off, n, p, msg, note)
}

// errKey reports a problem with the key at p itself (an unknown key).
func (v *validator) errKey(p, msg, note string) {
	off, n := v.locate(p, false)
	v.errAtOffset(off, n, p, msg, note)
}

var fields = []string{"id", "name", "description", "version", "entry", "icon", "capabilities",
	"allowedDomains", "linkDomains", "hosts", "displayModes", "wasm", "eval", "webrtc", "resourceDomains", "domain", "prefersBorder", "maxKB", "build"}
var buildFields = []string{"target", "define", "loader", "alias", "publicDir", "barrels", "inconsistentCjsInterop"}

// The patterns are compiled when a manifest first needs them, not when a process starts: a
// repetition such as {0,61} compiles to that many states, and every command runs this
// package's initialisation (0.5 ms of a 20 ms build before this).
var (
	semverRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)
	})
	hostRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)
	})
	targetRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(es(5|6|20(1[5-9]|2[0-5])|next)|(chrome|edge|firefox|safari|ios|opera|node|deno|hermes|ie|rhino)[0-9]+(\.[0-9]+){0,2})$`)
	})
)

// validName reports whether s is a lower-case ASCII letter followed by at most max-1 letters,
// digits or bytes of extra: an id (`^[a-z][a-z0-9-]{0,62}$`) or a capability
// (`^[a-z][a-z0-9._-]{0,63}$`).
func validName(s string, max int, extra string) bool {
	if len(s) == 0 || len(s) > max || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return true
}

var loaderSet = []string{"js", "jsx", "ts", "tsx", "css", "json", "text", "base64", "dataurl", "binary", "empty"}

func (v *validator) validate(raw map[string]any) *Manifest {
	m := &Manifest{MaxKB: DefaultMaxKB, Capabilities: []Capability{}, AllowedDomains: []string{},
		LinkDomains: []string{}, Hosts: []string{}, DisplayModes: []string{}, ResourceDomains: []string{}, File: v.file}
	m.Build.PublicDir = DefaultPublicDir
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		if !slices.Contains(fields, k) {
			note := suggest(k, fields, "the fields are "+strings.Join(fields, ", "))
			if k == "auth" {
				note = v.syntax("ask for the auth capability in a [[capabilities]] table: id = \"auth\" and purpose = \"…\"", `ask for the auth capability in "capabilities": [{ "id": "auth", "purpose": "…" }]`)
			}
			v.errKey(k, fmt.Sprintf("unknown field %q", k), note)
		}
	}
	m.ID = v.str(raw, "id", true)
	if m.ID != "" {
		if why, fix := idProblem(m.ID); why != "" {
			v.err("id", fmt.Sprintf("id %q %s", m.ID, why), fix)
		}
	}
	m.Name = v.str(raw, "name", true)
	v.length("name", m.Name, MaxNameLen, "the host shows the name and tells it to the model")
	m.Description = v.str(raw, "description", true)
	v.length("description", m.Description, MaxDescriptionLen, "the description goes into the model's system prompt; say what the app is for in one or two sentences")
	m.Version = v.str(raw, "version", false)
	if m.Version != "" && !semverRE().MatchString(m.Version) {
		v.err("version", fmt.Sprintf("version %q is not a semantic version", m.Version), "write MAJOR.MINOR.PATCH, such as 1.0.0")
	}
	m.Entry = v.str(raw, "entry", v.defaultEntry == "")
	if _, named := raw["entry"]; !named {
		m.Entry = v.defaultEntry
	}
	if m.Entry != "" {
		if msg := v.relPath(m.Entry); msg != "" {
			v.err("entry", fmt.Sprintf("entry %q %s", m.Entry, msg), "name index.html or a script such as src/main.tsx, inside the app folder")
		} else if ext := strings.ToLower(path.Ext(m.Entry)); !slices.Contains([]string{".html", ".tsx", ".ts", ".jsx", ".js", ".mts", ".mjs"}, ext) {
			v.err("entry", fmt.Sprintf("entry %q is neither an HTML page nor a script", m.Entry), "name index.html (as Vite does) or a .tsx, .ts, .jsx or .js file")
		}
		m.Entry = path.Clean(filepath.ToSlash(m.Entry))
	}
	m.Icon = v.str(raw, "icon", false)
	if m.Icon != "" {
		if msg := v.relPath(m.Icon); msg != "" {
			v.err("icon", fmt.Sprintf("icon %q %s", m.Icon, msg), "name an .svg or .png file inside the app folder")
		} else if ext := strings.ToLower(path.Ext(m.Icon)); ext != ".svg" && ext != ".png" {
			v.err("icon", fmt.Sprintf("icon %q is not an .svg or .png file", m.Icon), "convert the icon to SVG or PNG")
		}
		m.Icon = path.Clean(filepath.ToSlash(m.Icon))
	}
	m.Capabilities = v.capabilities(raw)
	m.AllowedDomains = v.list_(raw, "allowedDomains", v.origin)
	m.LinkDomains = v.list_(raw, "linkDomains", v.host)
	m.Hosts = v.list_(raw, "hosts", v.hostOrigin)
	// An origin written with a trailing slash is the origin.
	for _, l := range [][]string{m.AllowedDomains, m.Hosts} {
		for i, o := range l {
			l[i] = strings.TrimSuffix(o, "/")
		}
	}
	seen := map[string]bool{}
	m.DisplayModes = v.list_(raw, "displayModes", func(s string) (string, string) {
		switch {
		case !slices.Contains(DisplayModes, s):
			return "is not a display mode", suggest(s, DisplayModes, "the display modes are "+strings.Join(DisplayModes, ", "))
		case seen[s]:
			return "is listed twice", "list each display mode once"
		}
		seen[s] = true
		return "", ""
	})
	if _, ok := raw["displayModes"]; !ok {
		m.DisplayModes = []string{"inline"}
	}
	m.Wasm = v.boolean(raw, "wasm", "lets the page compile WebAssembly")
	m.Eval = v.boolean(raw, "eval", "lets the page run eval and new Function")
	m.WebRTC = v.boolean(raw, "webrtc", "lets the page open WebRTC peer connections, which no policy governs")
	m.ResourceDomains = v.list_(raw, "resourceDomains", func(s string) (string, string) {
		if s == "data:" {
			return "", ""
		}
		return v.origin(s)
	})
	for i, o := range m.ResourceDomains {
		m.ResourceDomains[i] = strings.TrimSuffix(o, "/")
	}
	m.Domain = v.str(raw, "domain", false)
	if m.Domain != "" && (strings.HasPrefix(m.Domain, "*.") || hostProblemOf(m.Domain) != "") {
		v.err("domain", fmt.Sprintf("domain %q is not a host name", m.Domain), `write the host the app asks to be framed on, such as "a904794854a047f6.claudemcpcontent.com" (its format is the host's)`)
	}
	if _, ok := raw["prefersBorder"]; ok {
		b := v.boolean(raw, "prefersBorder", "asks the host for a visible border and background")
		m.PrefersBorder = &b
	}
	if x, ok := raw["maxKB"]; ok {
		n, isInt := toInt(x)
		switch {
		case !isInt:
			v.err("maxKB", fmt.Sprintf("maxKB must be a whole number of kilobytes, not %s", describeValue(x)), fmt.Sprintf("write %s", v.assign("maxKB", strconv.Itoa(roundUp(x)))))
		case n < 1 || n > MaxMaxKB:
			v.err("maxKB", fmt.Sprintf("maxKB %d is out of range", n), fmt.Sprintf("the size budget is 1 to %d KB; the default is %d", MaxMaxKB, DefaultMaxKB))
		default:
			m.MaxKB = n
		}
	}
	if x, ok := raw["build"]; ok {
		if b, ok := x.(map[string]any); ok {
			v.build(b, &m.Build)
		} else {
			v.err("build", "build must be a table", v.syntax("write [build] on its own line, then its keys: target, define, loader, alias, publicDir, barrels, inconsistentCjsInterop", `write "build": { "target": "…" } with its keys: target, define, loader, alias, publicDir, barrels, inconsistentCjsInterop`))
		}
	}
	return m
}

func (v *validator) str(raw map[string]any, key string, required bool) string {
	x, ok := raw[key]
	if !ok {
		if required {
			note := "add " + v.example(key)
			if key == "description" {
				note += " (one or two sentences on what the app is for and what it does: the host tells it to the model)"
			}
			if key == "entry" {
				note += ` (a page, or a script such as "src/main.tsx"); left out, the entry is the app folder's index.html when it has one, as in Vite`
			}
			v.list = append(v.list, diag.Message{File: v.file, Path: key, Text: fmt.Sprintf("missing required field %q", key), Note: note})
		}
		return ""
	}
	s, ok := x.(string)
	if !ok {
		v.err(key, fmt.Sprintf("%s must be a string, not %s", key, describe(x)), fmt.Sprintf("write %s", v.example(key)))
		return ""
	}
	if required && strings.TrimSpace(s) == "" {
		v.err(key, fmt.Sprintf("%s is empty", key), fmt.Sprintf("write %s", v.example(key)))
	}
	return s
}

// boolean reads an optional true/false field; what says what true does, for the fix.
func (v *validator) boolean(raw map[string]any, key, what string) bool {
	x, ok := raw[key]
	if !ok {
		return false
	}
	b, isBool := x.(bool)
	if !isBool {
		fix := key + " = true"
		if v.json {
			fix = fmt.Sprintf("%q: true", key)
		}
		v.err(key, fmt.Sprintf("%s must be true or false, not %s", key, describe(x)), fmt.Sprintf("write %s (it %s)", fix, what))
	}
	return b
}

func (v *validator) example(key string) string {
	folder := v.folder
	if folder == "" || folder == "." || folder == string(filepath.Separator) {
		folder = "my-app"
	}
	id, name := IDFor(folder)
	ex := map[string]string{"id": strconv.Quote(id), "name": strconv.Quote(name), "description": `"…"`, "entry": `"index.html"`}[key]
	if ex == "" {
		ex = `"…"`
	}
	if v.json {
		return fmt.Sprintf(`"%s": %s`, key, ex)
	}
	return fmt.Sprintf(`%s = %s`, key, ex)
}

func (v *validator) length(key, s string, limit int, why string) {
	if n := utf8.RuneCountInString(s); n > limit {
		v.err(key, fmt.Sprintf("%s is %d characters, over the limit of %d", key, n, limit), fmt.Sprintf("shorten it by %d characters; %s", n-limit, why))
	}
}

// relPath returns why p is not a path inside the app folder, or "".
func (v *validator) relPath(p string) string {
	s := filepath.ToSlash(p)
	switch {
	case path.IsAbs(s) || filepath.IsAbs(p) || (len(s) > 1 && s[1] == ':'):
		return "is an absolute path"
	case s == ".." || strings.HasPrefix(s, "../") || strings.Contains(path.Clean(s), "../") || path.Clean(s) == "..":
		return "leaves the app folder"
	case strings.ContainsRune(s, 0):
		return "contains a NUL byte"
	}
	return ""
}

func (v *validator) capabilities(raw map[string]any) []Capability {
	out := []Capability{}
	x, ok := raw["capabilities"]
	if !ok {
		return out
	}
	arr, ok := x.([]any)
	if !ok {
		// A TOML array of tables decodes as []map[string]any.
		if maps, ok2 := x.([]map[string]any); ok2 {
			for _, mm := range maps {
				arr = append(arr, mm)
			}
		} else {
			v.err("capabilities", "capabilities must be a list of { id, purpose }", v.syntax(`write [[capabilities]] tables, each with id = "…" and purpose = "…"`, `write "capabilities": [{ "id": "…", "purpose": "…" }]`))
			return out
		}
	}
	seen := map[string]bool{}
	for i, e := range arr {
		p := fmt.Sprintf("capabilities[%d]", i)
		t, ok := e.(map[string]any)
		if !ok {
			v.err(p, "a capability must be a table with id and purpose", v.syntax(`write { id = "auth", purpose = "Sign you in to your account." }`, `write { "id": "auth", "purpose": "Sign you in to your account." }`))
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(t)) {
			if k != "id" && k != "purpose" {
				note := suggest(k, []string{"id", "purpose"}, "a capability has id and purpose")
				if k == "auth" {
					note = v.syntax(`the auth capability is a capability whose id is "auth": id = "auth" and purpose = "…"`, `the auth capability is a capability whose id is "auth": "id": "auth", "purpose": "…"`)
				}
				v.errKey(p+"."+k, fmt.Sprintf("unknown field %q in a capability", k), note)
			}
		}
		c := Capability{}
		if s, ok := t["id"].(string); ok && s != "" {
			c.ID = s
			if !validName(s, 64, "._-") {
				v.err(p+".id", fmt.Sprintf("capability id %q is not valid", s), "a capability id is lower-case letters, digits, '.', '_' and '-', starting with a letter")
			} else if seen[s] {
				v.err(p+".id", fmt.Sprintf("capability %q is listed twice", s), "list each capability once")
			}
			seen[s] = true
		} else {
			v.err(p, "capability has no id", v.syntax(`add id = "…" (for example "auth")`, `add "id": "…" (for example "auth")`))
		}
		if s, ok := t["purpose"].(string); ok && strings.TrimSpace(s) != "" {
			c.Purpose = s
			v.length(p+".purpose", s, MaxPurposeLen, "a person reads the purpose before allowing the capability")
		} else {
			v.err(p, fmt.Sprintf("capability %q has no purpose", c.ID), v.syntax(`add purpose = "…"`, `add "purpose": "…"`)+": the sentence a person reads before allowing it")
		}
		out = append(out, c)
	}
	return out
}

// list_ reads a list of strings at key, checking each with check (which returns why an entry
// is invalid and a suggested fix, or "").
func (v *validator) list_(raw map[string]any, key string, check func(string) (string, string)) []string {
	out := []string{}
	x, ok := raw[key]
	if !ok {
		return out
	}
	arr, ok := x.([]any)
	if !ok {
		v.err(key, fmt.Sprintf("%s must be a list of strings, not %s", key, describe(x)), "write "+v.assign(key, `["…"]`))
		return out
	}
	for i, e := range arr {
		p := fmt.Sprintf("%s[%d]", key, i)
		s, ok := e.(string)
		if !ok {
			v.err(p, fmt.Sprintf("%s entries must be strings, not %s", key, describe(e)), "quote it")
			continue
		}
		if why, fix := check(s); why != "" {
			v.err(p, fmt.Sprintf("%q %s", s, why), fix)
			continue
		}
		out = append(out, s)
	}
	return out
}

// origin checks an allowedDomains entry: an https: origin with no path, whose host may start
// with "*.".
func (v *validator) origin(s string) (string, string) {
	// Work out the origin the author meant in one pass, so that the fix suggested is one that
	// is accepted as written: the scheme made https:, the path dropped, the host lower-cased.
	var whys []string
	rest, ok := strings.CutPrefix(s, "https://")
	switch {
	case ok:
	case strings.HasPrefix(s, "http://"):
		rest = strings.TrimPrefix(s, "http://")
		whys = append(whys, "is not https: (a bundle connects only over HTTPS)")
	case strings.Contains(s, "://"):
		return "is not an https:// origin", `write an origin such as "https://api.example.com"`
	default:
		whys = append(whys, "is a host, not an origin")
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		if rest[i:] != "/" { // a lone trailing slash is the origin still
			whys = append(whys, "has a path")
		}
		rest = rest[:i]
	}
	host, port, hasPort := strings.Cut(rest, ":")
	if hasPort {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return "has an invalid port", "write https://host or https://host:port"
		}
	}
	fixed := "https://" + strings.ToLower(rest)
	if why, fix := hostProblem(host, fixed, "https://", "an origin such as \"https://api.example.com\""); why != "" {
		return strings.Join(append(whys, why), " and "), fix
	}
	if len(whys) > 0 {
		return strings.Join(whys, " and "), fmt.Sprintf("write %q", fixed)
	}
	return "", ""
}

// host checks a linkDomains entry: a host name, possibly starting with "*.".
func (v *validator) host(s string) (string, string) {
	if i := strings.Index(s, "://"); i >= 0 {
		h := s[i+3:]
		if j := strings.IndexAny(h, "/?#:"); j >= 0 {
			h = h[:j]
		}
		return "is a URL, not a host", fmt.Sprintf("write the host alone: %q", h)
	}
	return hostProblem(s, strings.ToLower(s), "", "a host such as \"docs.example.com\"")
}

// hostProblem says what is wrong with a host name (lower-case, with at most a leading "*."),
// and what to write instead: lowered, the corrected entry; scheme, the prefix the examples
// take; example, a valid entry.
func hostProblem(host, lowered, scheme, example string) (string, string) {
	switch {
	case host != strings.ToLower(host):
		return "has upper-case letters", fmt.Sprintf("write %q", lowered)
	case hostRE().MatchString(host) && strings.HasPrefix(host, "*.") && isPublicSuffix(host[2:]):
		return "has a wildcard over all of " + host[2:] + ", which would allow every site under it", fmt.Sprintf("name the site: %q", scheme+"*.example"+strings.TrimPrefix(host, "*"))
	case hostRE().MatchString(host):
		return "", ""
	case strings.Contains(host, "*"):
		return "has a wildcard other than a leading *.", fmt.Sprintf(`the only wildcard is a leading "*.", as in "%s*.example.com"`, scheme)
	}
	return "has an invalid host name", "write " + example
}

// isPublicSuffix reports whether domain is a public suffix (com, co.uk, github.io), under
// which anyone may register a site.
func isPublicSuffix(domain string) bool {
	ps, _ := publicsuffix.PublicSuffix(domain)
	return ps == domain
}

func hostProblemOf(host string) string {
	why, _ := hostProblem(host, strings.ToLower(host), "", "")
	return why
}

// hostOrigin checks a hosts entry: an https: origin, or an http: origin on localhost or
// 127.0.0.1 for development.
func (v *validator) hostOrigin(s string) (string, string) {
	if r, ok := strings.CutPrefix(s, "http://"); ok {
		h, port, hasPort := strings.Cut(strings.TrimSuffix(r, "/"), ":")
		if h == "localhost" || h == "127.0.0.1" {
			// The origin goes into the policy's frame-ancestors: a port is digits, or the
			// rest of the entry would be read as more of the policy.
			if n, err := strconv.Atoi(port); hasPort && (err != nil || n < 1 || n > 65535 || port != strconv.Itoa(n)) {
				return "has an invalid port", "write the origin with a port number alone, such as \"http://" + h + ":5173\""
			}
			return "", ""
		}
		why, fix := v.origin(s)
		return why, fix + " (plain http: is allowed only for localhost and 127.0.0.1)"
	}
	return v.origin(s)
}

func (v *validator) build(b map[string]any, out *Build) {
	for _, k := range slices.Sorted(maps.Keys(b)) {
		if !slices.Contains(buildFields, k) {
			v.errKey("build."+k, fmt.Sprintf("unknown field %q in [build]", k), suggest(k, buildFields, "[build] has "+strings.Join(buildFields, ", ")))
		}
	}
	if x, ok := b["target"]; ok {
		s, isString := x.(string)
		if !isString {
			v.err("build.target", fmt.Sprintf("build.target must be a string, not %s", describe(x)), `write target = "chrome111,safari16.4" (one string, comma-separated)`)
		}
		for _, t := range strings.Split(s, ",") {
			if t = strings.TrimSpace(t); isString && !targetRE().MatchString(t) {
				v.err("build.target", fmt.Sprintf("%q in build.target is not an esbuild target", t),
					"esbuild's targets are es2015 to es2025, es5, es6, esnext, and a browser or runtime with its version (chrome111, edge111, firefox114, safari16.4, ios16.4, opera, node, deno, hermes, ie, rhino); leave build.target out for Vite 8's default")
				break
			}
		}
		out.Target = s
	}
	out.Define = v.strMap(b, "define", func(k, val string) (string, string) {
		if strings.TrimSpace(val) == "" {
			return "is empty", `write the replacement as JavaScript, e.g. global = "window" or "process.env.X" = "\"x\""`
		}
		return "", ""
	})
	out.Loader = v.strMap(b, "loader", func(k, val string) (string, string) {
		if !strings.HasPrefix(k, ".") {
			return "is keyed by a name that is not a file extension", fmt.Sprintf("write %q = %q", "."+k, val)
		}
		if !slices.Contains(loaderSet, val) {
			return "is not an esbuild loader", suggest(val, loaderSet, "loaders are "+strings.Join(loaderSet, ", "))
		}
		return "", ""
	})
	out.Alias = v.strMap(b, "alias", func(k, val string) (string, string) {
		if strings.HasPrefix(val, "/") || strings.HasPrefix(val, "../") || filepath.IsAbs(val) {
			return "points outside the app folder", "alias to a package name or to ./a/path inside the app folder"
		}
		return "", ""
	})
	if x, ok := b["barrels"]; ok {
		if on, isBool := x.(bool); isBool {
			out.Barrels = &on
		} else {
			v.err("build.barrels", fmt.Sprintf("barrels must be true or false, not %s", describe(x)), v.syntax("write barrels = false (imports from a package's index then read every module it names)", `write "barrels": false (imports from a package's index then read every module it names)`))
		}
	}
	if x, ok := b["inconsistentCjsInterop"]; ok {
		if on, isBool := x.(bool); isBool {
			out.InconsistentCjsInterop = on
		} else {
			v.err("build.inconsistentCjsInterop", fmt.Sprintf("inconsistentCjsInterop must be true or false, not %s", describe(x)), v.syntax("write inconsistentCjsInterop = true (a default import of a CommonJS module that sets __esModule then gives its exports.default)", `write "inconsistentCjsInterop": true (a default import of a CommonJS module that sets __esModule then gives its exports.default)`))
		}
	}
	if x, ok := b["publicDir"]; ok {
		s, isStr := x.(string)
		if !isStr {
			v.err("build.publicDir", "publicDir must be a string", `write publicDir = "public"`)
		} else if msg := v.relPath(s); msg != "" && s != "" {
			v.err("build.publicDir", fmt.Sprintf("publicDir %q %s", s, msg), "name a folder inside the app folder")
		} else {
			out.PublicDir = path.Clean(filepath.ToSlash(s))
		}
	}
}

func (v *validator) strMap(b map[string]any, key string, check func(k, v string) (string, string)) map[string]string {
	x, ok := b[key]
	if !ok {
		return nil
	}
	t, ok := x.(map[string]any)
	if !ok {
		v.err("build."+key, fmt.Sprintf("%s must be a table of strings", key), v.syntax(fmt.Sprintf("write [build.%s] and key = \"value\" lines", key), fmt.Sprintf(`write "%s": { "name": "value" } inside "build"`, key)))
		return nil
	}
	out := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(t)) {
		p := "build." + key + "." + k
		if strings.ContainsAny(k, ".[]") {
			// A key such as ".js" cannot stand in a dotted path: locate by the quoted key.
			p = "build." + key + "." + strings.Trim(k, ".")
		}
		s, ok := t[k].(string)
		if !ok {
			v.err(p, fmt.Sprintf("%s.%s must be a string, not %s", key, k, describe(t[k])), "quote the value")
			continue
		}
		if why, fix := check(k, s); why != "" {
			v.err(p, fmt.Sprintf("%s %q %s", key, k, why), fix)
			continue
		}
		out[k] = s
	}
	return out
}

func toInt(x any) (int, bool) {
	switch n := x.(type) {
	case int64:
		return int(n), true
	case json.Number:
		i, err := strconv.Atoi(string(n))
		return i, err == nil
	}
	return 0, false
}

func describe(x any) string {
	switch x.(type) {
	case string:
		return "a string"
	case int64, json.Number, float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any, []map[string]any:
		return "a list"
	case map[string]any:
		return "a table"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", x)
}

// describeValue names a value as the author wrote it when it is a number, else its kind.
func describeValue(x any) string {
	switch n := x.(type) {
	case float64:
		return strconv.FormatFloat(n, 'f', -1, 64)
	case json.Number:
		return n.String()
	}
	return describe(x)
}

// roundUp is the whole number of kilobytes a maxKB value means, within range.
func roundUp(x any) int {
	var f float64
	switch n := x.(type) {
	case float64:
		f = n
	case json.Number:
		f, _ = n.Float64()
	default:
		return DefaultMaxKB
	}
	return min(max(int(f+0.999999), 1), MaxMaxKB)
}

// syntax picks the note written in the manifest's own syntax.
func (v *validator) syntax(toml, json string) string {
	if v.json {
		return json
	}
	return toml
}

// assign writes key = value in the manifest's own syntax.
func (v *validator) assign(key, value string) string {
	if v.json {
		return fmt.Sprintf("%q: %s", key, value)
	}
	return key + " = " + value
}

// suggest returns "did you mean X?" for the closest candidate, or fallback.
func suggest(s string, candidates []string, fallback string) string {
	if best, ok := diag.Suggest(s, candidates); ok {
		return fmt.Sprintf("did you mean %q?", best)
	}
	return fallback
}
