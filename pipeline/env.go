package pipeline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/manifest"
)

// publicPrefixes are the .env key prefixes that reach the bundle, as Vite's envPrefix does:
// every other key stays out, so that a secret in .env never ships.
var publicPrefixes = []string{"VITE_", "MINIAPP_"}

// envFiles are read in Vite's order for mode "production"; a later file wins.
var envFiles = []string{".env", ".env.local", ".env.production", ".env.production.local"}

// loadEnv reads the app's .env files, confined to the app folder like every other input, and
// returns the public keys and their values, as Vite's loadEnv does: a later file wins, a
// variable already in the process environment wins over every file, and ${NAME} (or $NAME)
// in a value expands to another variable, from the files or the environment.
func loadEnv(m *manifest.Manifest) (map[string]string, error) {
	all := map[string]string{}
	for _, name := range envFiles {
		p, err := m.Resolve(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if errors.Is(err, manifest.ErrOutside) {
			return nil, diag.List{{File: filepath.ToSlash(filepath.Join(m.Dir, name)), Text: fmt.Sprintf("%s is a symbolic link that leaves the app folder", name),
				Note: "bundle reads only files inside the app folder: copy the file in instead of linking to it"}}.Err()
		}
		if err != nil {
			return nil, err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		for k, v := range parseDotenv(src) {
			all[k] = v
		}
	}
	for k := range all {
		if v, ok := os.LookupEnv(k); ok {
			all[k] = v
		}
	}
	env := map[string]string{}
	for k, v := range all {
		for _, p := range publicPrefixes {
			if strings.HasPrefix(k, p) {
				env[k] = expand(v, all, map[string]bool{k: true})
			}
		}
	}
	// Public variables set only in the process environment reach the bundle too.
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		for _, p := range publicPrefixes {
			if _, ok := env[k]; !ok && strings.HasPrefix(k, p) {
				env[k] = v
			}
		}
	}
	return env, nil
}

var envRef = regexp.MustCompile(`\\?\$(\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)`)

// expand replaces $NAME and ${NAME} in v (dotenv-expand, as Vite does); \$ stays a dollar
// sign. A name in the process environment takes its value from there first; a cycle expands
// to "".
func expand(v string, vars map[string]string, seen map[string]bool) string {
	return envRef.ReplaceAllStringFunc(v, func(ref string) string {
		if strings.HasPrefix(ref, `\`) {
			return ref[1:]
		}
		name := strings.Trim(ref[1:], "{}")
		if val, ok := os.LookupEnv(name); ok {
			return val
		}
		val, ok := vars[name]
		if !ok || seen[name] {
			return ""
		}
		seen[name] = true
		defer delete(seen, name)
		return expand(val, vars, seen)
	})
}

// parseDotenv reads KEY=value lines: "export " prefixes, # comments, and single-, double- or
// un-quoted values (double quotes expand \n), as dotenv does.
func parseDotenv(src []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		v = strings.TrimSpace(v)
		switch {
		case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
			v = strings.ReplaceAll(v[1:len(v)-1], `\n`, "\n")
		case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
			v = v[1 : len(v)-1]
		default:
			if i := strings.Index(v, " #"); i >= 0 {
				v = strings.TrimSpace(v[:i])
			}
		}
		out[k] = v
	}
	return out
}

// defines returns esbuild's define map: import.meta.env as Vite defines it in production,
// process.env.NODE_ENV, and the manifest's own defines, which win.
func defines(env map[string]string, user map[string]string) map[string]string {
	d := map[string]string{}
	all := map[string]any{"MODE": "production", "PROD": true, "DEV": false, "SSR": false, "BASE_URL": "/"}
	for k, v := range env {
		all[k] = v
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b, _ := json.Marshal(all[k])
		d["import.meta.env."+k] = string(b)
	}
	obj, _ := json.Marshal(all) // encoding/json sorts map keys
	d["import.meta.env"] = string(obj)
	// As Vite's define plugin: through global and globalThis too.
	for _, k := range []string{"process.env.NODE_ENV", "global.process.env.NODE_ENV", "globalThis.process.env.NODE_ENV"} {
		d[k] = `"production"`
	}
	for k, v := range user {
		d[k] = v
	}
	return d
}

// htmlEnvRef is Vite's %NAME% in an HTML entry.
var htmlEnvRef = regexp.MustCompile(`%(\S+?)%`)

// envEdit is one %NAME% that htmlEnv replaced: where its value is in the new page (at, n) and
// where the reference was in the page as written (from, m).
type envEdit struct{ at, n, from, m int }

// htmlEnv replaces each %NAME% in the HTML entry src by import.meta.env.NAME's value, as Vite
// does for index.html (its HTML env replacement): the public .env variables, MODE, BASE_URL,
// PROD, DEV and SSR, and the manifest's import.meta.env defines, all as define (see defines)
// holds them. A name that has no value stays as written; those with a public prefix, most
// likely mistyped, are returned by their offset in src, to be warned of.
func htmlEnv(src []byte, define map[string]string) (out []byte, edits []envEdit, unknown [][2]int) {
	refs := htmlEnvRef.FindAllSubmatchIndex(src, -1)
	if len(refs) == 0 {
		return src, nil, nil
	}
	last := 0
	for _, r := range refs {
		name := string(src[r[2]:r[3]])
		text, ok := define["import.meta.env."+name]
		if !ok {
			for _, p := range publicPrefixes {
				if strings.HasPrefix(name, p) {
					unknown = append(unknown, [2]int{r[0], r[1] - r[0]})
				}
			}
			continue
		}
		var value string
		if json.Unmarshal([]byte(text), &value) != nil {
			value = text // true, false, a number: as Vite writes them
		}
		out = append(out, src[last:r[0]]...)
		edits = append(edits, envEdit{at: len(out), n: len(value), from: r[0], m: r[1] - r[0]})
		out = append(out, value...)
		last = r[1]
	}
	if edits == nil {
		return src, nil, unknown
	}
	return append(out, src[last:]...), edits, unknown
}

// written returns the offset in the page as written of the offset off in the page htmlEnv made
// with edits: a place inside a value is the place of its reference.
func written(edits []envEdit, off int) int {
	i := sort.Search(len(edits), func(i int) bool { return edits[i].at > off }) - 1
	if i < 0 {
		return off
	}
	e := edits[i]
	if off < e.at+e.n {
		return e.from
	}
	return off - (e.at + e.n) + (e.from + e.m)
}
