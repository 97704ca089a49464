package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
)

const valid = `id = "order-book"
name = "Order Book"
description = "Orders."
entry = "index.html"
`

func TestParseValid(t *testing.T) {
	m, l := Parse("miniapp.toml", []byte(valid+`
version = "1.2.3-beta.1"
allowedDomains = ["https://api.example.com", "https://*.cdn.example.com:8443"]
linkDomains = ["docs.example.com", "*.example.org"]
hosts = ["https://chat.example.com", "http://localhost:5173", "http://127.0.0.1:8080"]
maxKB = 1024

[[capabilities]]
id = "auth"
purpose = "Sign you in."

[build]
target = "chrome111,safari16"
define = { global = "window" }
loader = { ".js" = "jsx" }
alias = { "@" = "./src" }
publicDir = "static"
`))
	if len(l) > 0 {
		t.Fatalf("unexpected problems:\n%s", diag.FormatLines(l))
	}
	if m.MaxKB != 1024 || len(m.AllowedDomains) != 2 || len(m.Hosts) != 3 || !m.HasCapability("auth") ||
		m.Build.Define["global"] != "window" || m.Build.Loader[".js"] != "jsx" || m.Build.PublicDir != "static" {
		t.Errorf("parsed %+v", m)
	}
}

func TestDefaults(t *testing.T) {
	m, l := Parse("miniapp.toml", []byte(valid))
	if len(l) > 0 {
		t.Fatal(l)
	}
	if m.MaxKB != DefaultMaxKB || m.Build.PublicDir != "public" || m.Capabilities == nil || m.AllowedDomains == nil || m.LinkDomains == nil || m.Hosts == nil {
		t.Errorf("defaults: %+v", m)
	}
}

// TestTOMLAndJSONAgree checks that the same mistakes get the same field paths in both formats.
func TestTOMLAndJSONAgree(t *testing.T) {
	toml := `id = "x"
name = "X"
descripton = "typo"
entry = "main.tsx"
maxKB = 9000
linkDomains = ["https://a.example"]
`
	json := `{
  "id": "x",
  "name": "X",
  "descripton": "typo",
  "entry": "main.tsx",
  "maxKB": 9000,
  "linkDomains": ["https://a.example"]
}`
	_, lt := Parse("miniapp.toml", []byte(toml))
	_, lj := Parse("manifest.json", []byte(json))
	paths := func(l diag.List) string {
		var p []string
		for _, m := range l {
			p = append(p, m.Path)
		}
		return strings.Join(p, ",")
	}
	if paths(lt) != paths(lj) || paths(lt) != "description,descripton,maxKB,linkDomains[0]" {
		t.Errorf("TOML %s, JSON %s", paths(lt), paths(lj))
	}
	for i := range lt {
		// The JSON has its opening brace on a line of its own: each field is one line lower.
		if lt[i].Path != "description" && (lt[i].Line == 0 || lj[i].Line != lt[i].Line+1) {
			t.Errorf("%s at line %d in TOML, %d in JSON", lt[i].Path, lt[i].Line, lj[i].Line)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	rows := []struct {
		name, add, path, text string
	}{
		{"id_uppercase", `id = "Bad"`, "id", "is not valid"},
		{"id_too_long", `id = "a` + strings.Repeat("b", 63) + `"`, "id", "is not valid"},
		{"name_too_long", `name = "` + strings.Repeat("n", 61) + `"`, "name", "over the limit of 60"},
		{"name_not_string", `name = 3`, "name", "must be a string, not a number"},
		{"description_empty", `description = " "`, "description", "is empty"},
		{"version_not_semver", `version = "1.0"`, "version", "not a semantic version"},
		{"entry_absolute", `entry = "/etc/passwd"`, "entry", "absolute path"},
		{"entry_parent", `entry = "src/../../x.html"`, "entry", "leaves the app folder"},
		{"entry_kind", `entry = "main.py"`, "entry", "neither an HTML page nor a script"},
		{"icon_kind", `icon = "icon.gif"`, "icon", "not an .svg or .png"},
		{"origin_path", `allowedDomains = ["https://a.example/v1"]`, "allowedDomains[0]", "has a path"},
		{"origin_host_only", `allowedDomains = ["api.example.com"]`, "allowedDomains[0]", "is a host, not an origin"},
		{"origin_upper", `allowedDomains = ["https://API.example.com"]`, "allowedDomains[0]", "upper-case"},
		{"origin_port", `allowedDomains = ["https://a.example:99999"]`, "allowedDomains[0]", "invalid port"},
		{"origin_middle_wildcard", `allowedDomains = ["https://a.*.example"]`, "allowedDomains[0]", "wildcard"},
		{"link_url", `linkDomains = ["https://docs.example.com/x"]`, "linkDomains[0]", "is a URL, not a host"},
		{"link_not_string", `linkDomains = [1]`, "linkDomains[0]", "must be strings"},
		{"hosts_http", `hosts = ["http://chat.example.com"]`, "hosts[0]", "is not https:"},
		{"hosts_localhost_port_policy", `hosts = ["http://localhost:1;frame-ancestors *"]`, "hosts[0]", "invalid port"},
		{"hosts_localhost_port_range", `hosts = ["http://127.0.0.1:70000"]`, "hosts[0]", "invalid port"},
		{"id_reserved", `id = "registry"`, "id", "is reserved"},
		{"id_path", `id = "sapp/` + strings.Repeat("ab", 32) + `"`, "id", "is not valid"},
		{"max_kb_big", `maxKB = 8193`, "maxKB", "out of range"},
		{"max_kb_float", `maxKB = 1.5`, "maxKB", "whole number"},
		{"cap_no_id", "[[capabilities]]\npurpose = \"p\"", "capabilities[0]", "has no id"},
		{"cap_dup", "[[capabilities]]\nid = \"a\"\npurpose = \"p\"\n[[capabilities]]\nid = \"a\"\npurpose = \"p\"", "capabilities[1].id", "listed twice"},
		{"cap_unknown_key", "[[capabilities]]\nid = \"a\"\npurpose = \"p\"\npurpse = \"x\"", "capabilities[0].purpse", `did you mean "purpose"`},
		{"build_unknown", "[build]\ntarget = \"es2020\"\nouts = 1", "build.outs", "unknown field"},
		{"build_target", "[build]\ntarget = \"es1999\"", "build.target", "not an esbuild target"},
		{"build_loader_ext", "[build]\nloader = { js = \"jsx\" }", "build.loader.js", "not a file extension"},
		{"build_alias_outside", "[build]\nalias = { x = \"../x\" }", "build.alias.x", "outside the app folder"},
		{"build_barrels_string", "[build]\nbarrels = \"no\"", "build.barrels", "must be true or false, not a string"},
		{"build_cjs_interop_string", "[build]\ninconsistentCjsInterop = 1", "build.inconsistentCjsInterop", "must be true or false, not a number"},
		{"unknown_top", `colour = "red"`, "colour", "unknown field"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			src := valid
			// A row's key replaces the valid line with the same key.
			key, _, _ := strings.Cut(row.add, " ")
			var lines []string
			for _, l := range strings.Split(src, "\n") {
				if !strings.HasPrefix(l, key+" ") {
					lines = append(lines, l)
				}
			}
			src = strings.Join(lines, "\n") + "\n" + row.add + "\n"
			_, l := Parse("miniapp.toml", []byte(src))
			for _, m := range l {
				if m.Path == row.path && strings.Contains(m.Text+" "+m.Note, row.text) {
					if m.Note == "" {
						t.Errorf("%s has no note saying what to do", m)
					}
					return
				}
			}
			t.Errorf("no problem at %s saying %q; got:\n%s", row.path, row.text, diag.FormatLines(l))
		})
	}
}

func TestSyntaxErrors(t *testing.T) {
	_, l := Parse("miniapp.toml", []byte("id = \"x\"\nname = \n"))
	if len(l) != 1 || l[0].Line != 2 || !strings.Contains(l[0].Text, "invalid TOML") {
		t.Errorf("TOML syntax error: %s", diag.FormatLines(l))
	}
	_, l = Parse("manifest.json", []byte("{\n  \"id\": \"x\",\n  \"name\": }\n"))
	if len(l) != 1 || l[0].Line != 3 || !strings.Contains(l[0].Text, "invalid JSON") {
		t.Errorf("JSON syntax error: %s", diag.FormatLines(l))
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); !errors.Is(err, ErrNotFound) {
		t.Errorf("empty folder: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"id":"j","name":"J","description":"d","entry":"index.html"}`), 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), `entry "index.html" does not exist`) {
		t.Errorf("missing entry: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>"), 0o644)
	m, err := Load(dir)
	if err != nil || m.ID != "j" || m.Dir != dir {
		t.Errorf("Load: %v %+v", err, m)
	}
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "x.html"), []byte("<p>"), 0o644)
	os.Symlink(filepath.Join(outside, "x.html"), filepath.Join(dir, "link.html"))
	if _, err := m.Resolve("link.html"); !errors.Is(err, ErrOutside) {
		t.Errorf("a symbolic link out of the folder: %v", err)
	}
	if _, err := m.Resolve("../x.html"); !errors.Is(err, ErrOutside) {
		t.Errorf("../: %v", err)
	}
	if _, err := m.Resolve("index.html"); err != nil {
		t.Errorf("inside: %v", err)
	}
}

// TestEntryDefault: a manifest that names no entry takes the folder's index.html, as Vite
// does, and is refused at the field, saying so, when the folder has none.
func TestEntryDefault(t *testing.T) {
	for _, name := range []string{TOMLName, JSONName} {
		dir := t.TempDir()
		src := "id = \"e\"\nname = \"E\"\ndescription = \"d\"\n"
		if name == JSONName {
			src = `{"id": "e", "name": "E", "description": "d"}`
		}
		os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644)
		_, err := Load(dir)
		var le *diag.ListError
		if !errors.As(err, &le) || len(le.List) != 1 || le.List[0].Path != "entry" ||
			!strings.Contains(le.List[0].Text, `missing required field "entry"`) || !strings.Contains(le.List[0].Note, "index.html") {
			t.Fatalf("%s, no index.html: %v", name, err)
		}
		os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>"), 0o644)
		m, err := Load(dir)
		if err != nil || m.Entry != "index.html" {
			t.Fatalf("%s with index.html: %v %+v", name, err, m)
		}
		if _, l := Parse(filepath.Join(dir, name), []byte(src)); len(l) != 1 || l[0].Path != "entry" {
			t.Errorf("%s: Parse, which reads no folder, takes no default: %v", name, l)
		}
	}
	// index.html a symbolic link out of the folder: refused at the entry, as a named one is.
	dir, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "index.html"), []byte("<p>"), 0o644)
	os.Symlink(filepath.Join(outside, "index.html"), filepath.Join(dir, "index.html"))
	os.WriteFile(filepath.Join(dir, TOMLName), []byte("id = \"e\"\nname = \"E\"\ndescription = \"d\"\n"), 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), `entry "index.html" leaves the app folder through a symbolic link`) {
		t.Errorf("index.html linked from outside: %v", err)
	}
}

// FuzzParse checks that Parse never panics, and that every problem it reports names a place.
func FuzzParse(f *testing.F) {
	f.Add([]byte(valid))
	f.Add([]byte("[[capabilities]]\nid = 1\n[build]\nloader = { a = 2 }"))
	f.Add([]byte(`{"id": "x", "capabilities": [{"id": 3}], "build": {"alias": []}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, name := range []string{"miniapp.toml", "manifest.json"} {
			m, l := Parse(name, src)
			if m == nil && len(l) == 0 {
				t.Fatalf("no manifest and no problem for %q", src)
			}
			for _, d := range l {
				if d.Path == "" && d.Line == 0 {
					t.Fatalf("a problem with no place: %s", d)
				}
			}
		}
	})
}

// TestMCPFields reads what goes to the MCP Apps resource's _meta.ui, and refuses what cannot.
func TestMCPFields(t *testing.T) {
	m, l := Parse("miniapp.toml", []byte(valid+`resourceDomains = ["data:", "https://*.cdn.example.com"]
domain = "a904794854a047f6.claudemcpcontent.com"
prefersBorder = false
`))
	if len(l) > 0 {
		t.Fatalf("unexpected problems:\n%s", diag.FormatLines(l))
	}
	if len(m.ResourceDomains) != 2 || m.Domain != "a904794854a047f6.claudemcpcontent.com" || m.PrefersBorder == nil || *m.PrefersBorder {
		t.Errorf("parsed %+v", m)
	}
	if m, _ := Parse("miniapp.toml", []byte(valid)); m.PrefersBorder != nil || m.ResourceDomains == nil {
		t.Errorf("defaults: prefersBorder %v, resourceDomains %v", m.PrefersBorder, m.ResourceDomains)
	}
	_, l = Parse("miniapp.toml", []byte(valid+`resourceDomains = ["blob:", "http://cdn.example.com"]
domain = "https://x.example.com"
prefersBorder = "yes"
`))
	got := diag.FormatLines(l)
	for _, want := range []string{"resourceDomains[0]", "resourceDomains[1]: error: \"http://cdn.example.com\" is not https:", "domain: error", "prefersBorder: error: prefersBorder must be true or false"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// TestSetting writes a fix in the manifest's own syntax, TOML or JSON.
func TestSetting(t *testing.T) {
	toml, json := &Manifest{File: "miniapp.toml"}, &Manifest{File: "manifest.json"}
	for _, c := range []struct {
		m     *Manifest
		key   string
		value any
		want  string
	}{
		{toml, "hosts", []string{"https://chat.example.com"}, `hosts = ["https://chat.example.com"]`},
		{json, "hosts", []string{"https://chat.example.com"}, `"hosts": ["https://chat.example.com"]`},
		{toml, "build.loader", map[string]string{".js": "jsx"}, `loader = { ".js" = "jsx" } under [build]`},
		{json, "build.alias", map[string]string{"@": "./src"}, `"build": { "alias": { "@": "./src" } }`},
		{toml, "entry", "index.html", `entry = "index.html"`},
	} {
		if got := c.m.Setting(c.key, c.value); got != c.want {
			t.Errorf("%s %s: %s, want %s", c.m.File, c.key, got, c.want)
		}
	}
}

// TestCheckValue: a value that does not come from a manifest (a registry entry's) is judged by
// the manifest's own rule, and must be written as a build writes it.
func TestCheckValue(t *testing.T) {
	rows := []struct {
		field, value, want string // want: "" for valid, else a part of the error
	}{
		{"id", "order-book", ""},
		{"id", "sapp/" + strings.Repeat("0", 64), "is not valid"},
		{"id", "a>, <https://evil.example>; rel=preconnect", "is not valid"},
		{"id", "a\r\nSet-Cookie: x=1", "is not valid"},
		{"id", "registry", "is reserved"},
		{"hosts", "https://chat.example.com", ""},
		{"hosts", "https://*.example.com", ""},
		{"hosts", "http://localhost:5173", ""},
		{"hosts", "*", "is a host, not an origin"},
		{"hosts", "https://chat.example.com; frame-ancestors *", "wildcard"},
		{"hosts", "https://chat.example.com;sandbox", "invalid host name"},
		{"hosts", "http://localhost:1 *", "invalid port"},
		{"hosts", "https://chat.example.com/", "ends in a slash"},
		{"allowedDomains", "https://api.example.com", ""},
		{"allowedDomains", "https://api.example.com 'unsafe-inline'", "invalid host name"},
		{"linkDomains", "docs.example.com", ""},
		{"linkDomains", "docs.example.com,evil", "invalid host name"},
	}
	for _, r := range rows {
		err := CheckValue(r.field, r.value)
		switch {
		case r.want == "" && err != nil:
			t.Errorf("%s %q: %v", r.field, r.value, err)
		case r.want != "" && (err == nil || !strings.Contains(err.Error(), r.want)):
			t.Errorf("%s %q: %v, want an error saying %q", r.field, r.value, err, r.want)
		}
	}
}

// TestIsBundles holds manifest.json to being bundle's only with one of bundle's fields and
// none of another format's: a web app manifest or an MCP bundle's beside an app is its file.
func TestIsBundles(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      bool
		other     string
	}{
		{"bundle", `{"id": "x", "name": "X", "description": "D."}`, true, ""},
		{"bundle_with_a_typo", `{"id": "x", "nmae": "X"}`, true, ""},
		{"bundle_without_id", `{"name": "X", "entry": "index.html"}`, true, ""},
		{"not_json", `{"id": "x",}`, true, ""},
		{"web_app_manifest", `{"name": "X", "short_name": "X", "start_url": "/", "icons": []}`, false, "a web app manifest (icons)"},
		{"web_app_manifest_with_id", `{"id": "/", "name": "X", "start_url": "/"}`, false, "a web app manifest (start_url)"},
		{"mcpb", `{"manifest_version": "0.2", "name": "pdf", "version": "1.0.0", "description": "D.", "icon": "icon.png", "server": {}}`, false, "an MCP bundle's (MCPB) or a browser extension's manifest (manifest_version)"},
		{"extension", `{"name": "X", "permissions": []}`, false, "a browser extension's manifest (permissions)"},
		{"name_alone", `{"name": "X", "description": "D."}`, false, "not bundle's: it has none of bundle's fields (id, entry, hosts, …)"},
	} {
		ok, other := IsBundles([]byte(c.src))
		if ok != c.want || other != c.other {
			t.Errorf("%s: IsBundles = %v, %q; want %v, %q", c.name, ok, other, c.want, c.other)
		}
	}
	// miniapp.toml wins over any manifest.json; another format's alone is no manifest.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"manifest_version": "0.2", "name": "pdf"}`), 0o644)
	if _, err := Load(dir); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "MCP bundle's") {
		t.Errorf("Load with an MCPB manifest.json alone: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "miniapp.toml"), []byte("id = \"t\"\nname = \"T\"\ndescription = \"D.\"\nentry = \"index.html\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>x</p>"), 0o644)
	if m, err := Load(dir); err != nil || m.ID != "t" {
		t.Errorf("Load with miniapp.toml and a manifest.json: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"id": "other"}`), 0o644)
	if m, err := Load(dir); err != nil || m.ID != "t" {
		t.Errorf("Load with miniapp.toml and a bundle manifest.json: %v, want miniapp.toml's", err)
	}
}

// TestMissingIDAdvice: a manifest without an id or a name is told to write the ones bundle
// init would give its folder, not another app's; a manifest read without its folder (Parse
// of a bare file name) gets "my-app".
func TestMissingIDAdvice(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Weather_Board")
	os.Mkdir(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>"), 0o644)
	os.WriteFile(filepath.Join(dir, TOMLName), []byte("description = \"d\"\n"), 0o644)
	_, err := Load(dir)
	var le *diag.ListError
	if !errors.As(err, &le) {
		t.Fatalf("Load: %v", err)
	}
	if got := le.List; len(got) != 2 || got[0].Note != `add id = "weather-board"` || got[1].Note != `add name = "Weather Board"` {
		t.Errorf("Load: %+v", got)
	}
	_, list := Parse("miniapp.toml", []byte("name = \"n\"\ndescription = \"d\"\nentry = \"index.html\"\n"))
	if len(list) != 1 || list[0].Note != `add id = "my-app"` {
		t.Errorf("Parse: %v", list)
	}
}
