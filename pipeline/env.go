package pipeline

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
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
// returns the public keys and their values as Vite's loadEnv gives them: each file parsed as
// Node's util.parseEnv parses it, a later file winning; every value expanded by
// dotenv-expand's algorithm (version 12, which Vite runs) against the process environment,
// which wins over the files (a variable set there keeps its value, unexpanded, and $NAME
// takes its value from there first); then the public keys of the process environment over
// them. It warns at its place of each public value that takes a variable from the
// environment the build runs in: that value goes into the page.
func loadEnv(m *manifest.Manifest, cfg *viteConfig) (map[string]string, diag.List, error) {
	var vars []envVar
	index := map[string]int{}
	envPrefixes := cfg.envPrefixes()
	prefixes := func(key string) bool {
		for _, p := range envPrefixes {
			if strings.HasPrefix(key, p) {
				return true
			}
		}
		return false
	}
	dir := ""
	if cfg != nil && cfg.EnvDir != "" {
		if rel, err := filepath.Rel(m.Root, cfg.EnvDir); err == nil {
			dir = rel
		}
	}
	for _, name := range envFiles {
		p, err := m.Resolve(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if errors.Is(err, manifest.ErrOutside) && dir != "" {
			return nil, nil, diag.List{{File: filepath.ToSlash(cfg.File), Text: fmt.Sprintf("envDir %s leaves the app folder (its %s is outside it, or links out)", filepath.ToSlash(cfg.EnvDir), name),
				Note: "bundle reads only files inside the app folder: set envDir to a folder inside it, or leave it out (the app folder)"}}.Err()
		}
		if errors.Is(err, manifest.ErrOutside) {
			return nil, nil, diag.List{{File: filepath.ToSlash(filepath.Join(m.Dir, name)), Text: fmt.Sprintf("%s is a symbolic link that leaves the app folder", name),
				Note: "bundle reads only files inside the app folder: copy the file in instead of linking to it"}}.Err()
		}
		if err != nil {
			return nil, nil, err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		// As Vite's Object.fromEntries over the files: a key keeps the place it first had,
		// with the last file's value.
		for _, v := range parseDotenv(src) {
			v.file = filepath.ToSlash(filepath.Join(m.Dir, name))
			if i, ok := index[v.key]; ok {
				vars[i] = v
				continue
			}
			index[v.key] = len(vars)
			vars = append(vars, v)
		}
	}
	vars = jsKeyOrder(vars)
	processEnv := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		processEnv[k] = v
	}
	if cfg != nil {
		for k, v := range cfg.Env { // what the config set in process.env, as Vite's loadEnv sees it
			processEnv[k] = v
		}
	}
	values, taken := expandEnv(vars, processEnv)
	env := map[string]string{}
	var warnings diag.List
	for _, v := range vars {
		if !prefixes(v.key) {
			continue
		}
		env[v.key] = values[v.key]
		if names := taken[v.key]; len(names) > 0 {
			w := diag.Message{Severity: diag.Warning, File: v.file, Line: v.line, Column: 1, Length: len(v.key),
				Text: fmt.Sprintf("%s takes $%s from the environment the build runs in, and every %s value goes into the page", v.key, strings.Join(names, ", $"), v.key[:strings.IndexByte(v.key, '_')+1]),
				Note: fmt.Sprintf("if that is meant, set %s itself in that environment; else write \\$ for a dollar sign, or define the variable in .env (Vite expands $NAME from the environment first)", v.key)}
			w.LineText = v.text
			warnings = append(warnings, w)
		}
	}
	// Public variables of the process environment win, as in Vite. One that only the config's
	// own envPrefix makes public (envPrefix: "AWS_") is a variable the builder never named for
	// the page: its value goes in all the same, as in Vite, and the build says so, by name.
	var exposed []string
	for k, v := range processEnv {
		if !prefixes(k) {
			continue
		}
		env[k] = v
		if _, set := cfg.setEnv(k); !set && !public(k) {
			exposed = append(exposed, k)
		}
	}
	if len(exposed) > 0 {
		sort.Strings(exposed)
		warnings = append(warnings, diag.Message{Severity: diag.Warning, File: filepath.ToSlash(cfg.File),
			Text: fmt.Sprintf("envPrefix %q makes $%s of the environment the build runs in public: its value goes into the page wherever import.meta.env reads it", cfg.EnvPrefix, strings.Join(exposed, ", $")),
			Note: fmt.Sprintf("if that is meant, name it %s… in that environment; else give envPrefix a prefix that only the page's own variables have (Vite's is VITE_)", publicPrefixes[0])})
	}
	return env, warnings, nil
}

// public reports whether an env key reaches the page.
func public(key string) bool {
	for _, p := range publicPrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// envVar is one KEY=value of a .env file, where it is written.
type envVar struct {
	key, value string
	file       string
	line       int
	text       string // the line, for messages
}

// jsKeyOrder orders vars as a JavaScript object orders its keys, which dotenv-expand walks:
// keys that are array indices first, by value, then the others as they came.
func jsKeyOrder(vars []envVar) []envVar {
	index := func(k string) (uint64, bool) {
		n, err := strconv.ParseUint(k, 10, 32)
		return n, err == nil && n < 1<<32-1 && strconv.FormatUint(n, 10) == k
	}
	out := slices.Clone(vars)
	slices.SortStableFunc(out, func(a, b envVar) int {
		na, ia := index(a.key)
		nb, ib := index(b.key)
		switch {
		case ia && ib:
			return cmp.Compare(na, nb)
		case ia:
			return -1
		case ib:
			return 1
		}
		return 0
	})
	return out
}

// expandEnv expands vars in order as dotenv-expand 12 does for Vite (expand({parsed,
// processEnv})): a key the process environment sets (to something else) keeps that value;
// any other value has each $NAME, ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:+alt}
// and ${NAME+alt} not preceded by a backslash replaced, again from the start after each
// replacement, with the value of NAME in the process environment, else among the keys
// expanded before it; then \$ becomes $. taken lists, for each key, the variables of the
// process environment whose values reached it (through the keys it names, too).
func expandEnv(vars []envVar, processEnv map[string]string) (map[string]string, map[string][]string) {
	running := map[string]string{}
	taken := map[string][]string{}
	for _, v := range vars {
		value := v.value
		var names []string
		if pv := processEnv[v.key]; pv != "" && pv != value {
			value = pv
		} else {
			value, names = expandValue(value, processEnv, running, taken)
		}
		value = strings.ReplaceAll(value, `\$`, "$")
		running[v.key] = value
		slices.Sort(names)
		taken[v.key] = slices.Compact(names)
	}
	return running, taken
}

// maxExpansions bounds the replacements in one value: dotenv-expand loops for ever on two
// variables of the environment that name each other, where bundle stops.
const maxExpansions = 10000

// expandValue is dotenv-expand's expandValue. It returns the expanded value and the variables
// of the process environment it took.
func expandValue(value string, processEnv, running map[string]string, taken map[string][]string) (string, []string) {
	var names []string
	result := value
	seen := map[string]bool{}
	for n := 0; n < maxExpansions; n++ {
		template, expr, ok := nextReference(result)
		if !ok {
			break
		}
		seen[result] = true
		splitter := envOperator(expr)
		key, def, _ := strings.Cut(expr, splitter) // split(null) splits at "null", as JavaScript's does
		// dotenv-expand's env: {...runningParsed, ...processEnv}.
		get := func(k string) (string, bool) {
			if v, ok := processEnv[k]; ok {
				return v, true
			}
			return running[k], false
		}
		var val string
		fromEnv := false
		if splitter == ":+" || splitter == "+" {
			if v, _ := get(key); v == "" {
				def = ""
			}
		} else {
			val, fromEnv = get(key)
		}
		repl := def
		if val != "" && !seen[val] {
			repl = val
			if fromEnv {
				names = append(names, key)
			} else {
				names = append(names, taken[key]...)
			}
		}
		result = jsReplaceFirst(result, template, repl)
		if r, ok := running[key]; ok && result == r {
			break
		}
	}
	return result, names
}

// nextReference finds the first $NAME or ${expr} in s not preceded by a backslash, as
// dotenv-expand's pattern does: the whole reference and its expression.
func nextReference(s string) (template, expr string, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i > 0 && s[i-1] == '\\' {
			continue
		}
		if i+1 < len(s) && s[i+1] == '{' {
			if end := strings.IndexAny(s[i+2:], "{}"); end > 0 && s[i+2+end] == '}' {
				return s[i : i+3+end], s[i+2 : i+2+end], true
			}
		}
		j := i + 1
		for j < len(s) && (s[j] == '_' || 'a' <= s[j] && s[j] <= 'z' || 'A' <= s[j] && s[j] <= 'Z' || j > i+1 && '0' <= s[j] && s[j] <= '9') {
			j++
		}
		if j > i+1 {
			return s[i:j], s[i+1 : j], true
		}
	}
	return "", "", false
}

// envOperator returns the first of :+, +, :- and - in expr (the leftmost, and at one place in
// that order), or "null", which JavaScript's split(null) splits at.
func envOperator(expr string) string {
	for i := 0; i < len(expr); i++ {
		for _, op := range []string{":+", "+", ":-", "-"} {
			if strings.HasPrefix(expr[i:], op) {
				return op
			}
		}
	}
	return "null"
}

// jsReplaceFirst is JavaScript's s.replace(pattern, repl) with a string pattern: the first
// occurrence, with repl's $$, $&, $` and $' patterns.
func jsReplaceFirst(s, pattern, repl string) string {
	i := strings.Index(s, pattern)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for j := 0; j < len(repl); j++ {
		if repl[j] == '$' && j+1 < len(repl) {
			switch repl[j+1] {
			case '$':
				b.WriteByte('$')
				j++
				continue
			case '&':
				b.WriteString(pattern)
				j++
				continue
			case '`':
				b.WriteString(s[:i])
				j++
				continue
			case '\'':
				b.WriteString(s[i+len(pattern):])
				j++
				continue
			}
		}
		b.WriteByte(repl[j])
	}
	b.WriteString(s[i+len(pattern):])
	return b.String()
}

// parseDotenv parses a .env file as Node's util.parseEnv does (src/node_dotenv.cc, which Vite
// calls): KEY=value lines, "export " before a key, # comments on their own line or after an
// unquoted value, values in single, double or back quotes (double quotes turn \n into a
// newline, and span lines), a line without = skipped. Keys come sorted, as Node's map holds
// them; a key given twice keeps its last value.
func parseDotenv(src []byte) []envVar {
	content := strings.ReplaceAll(string(src), "\r", "")
	lines := strings.Split(content, "\n")
	vars := map[string]envVar{}
	pos := 0 // offset in content
	const space = " \t\n"
	skip := func() { // trim_spaces at the front
		for pos < len(content) && strings.IndexByte(space, content[pos]) >= 0 {
			pos++
		}
	}
	lineAt := func(off int) int { return strings.Count(content[:off], "\n") + 1 }
	skip()
	for pos < len(content) {
		if c := content[pos]; c == '\n' || c == '#' {
			if nl := strings.IndexByte(content[pos:], '\n'); nl >= 0 {
				pos += nl + 1
			} else {
				pos = len(content)
			}
			continue
		}
		eq := strings.IndexAny(content[pos:], "=\n")
		if eq < 0 {
			break
		}
		if content[pos+eq] == '\n' {
			pos += eq + 1
			skip()
			continue
		}
		keyAt := pos
		key := strings.Trim(content[pos:pos+eq], space)
		pos += eq + 1
		set := func(v string) {
			if key == "" {
				return
			}
			k := key
			if rest, ok := strings.CutPrefix(k, "export "); ok {
				k = strings.Trim(rest, space)
			}
			n := lineAt(keyAt)
			vars[k] = envVar{key: k, value: v, line: n, text: lines[n-1]}
		}
		if pos >= len(content) || content[pos] == '\n' {
			set("")
			continue
		}
		skip()
		if pos >= len(content) {
			set("")
			break
		}
		rest := content[pos:]
		if q := rest[0]; q == '"' || q == '\'' || q == '`' {
			if end := strings.IndexByte(rest[1:], q); end >= 0 {
				v := rest[1 : 1+end]
				if q == '"' {
					v = strings.ReplaceAll(v, `\n`, "\n")
				}
				set(v)
				if nl := strings.IndexByte(rest[2+end:], '\n'); nl >= 0 {
					pos += 2 + end + nl + 1
				} else {
					pos = len(content)
				}
				skip()
				continue
			}
			// No closing quote: the line as it is.
			if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
				set(rest[:nl])
				pos += nl + 1
				skip()
				continue
			}
			set(rest)
			break
		}
		v := rest
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			v = rest[:nl]
			pos += nl + 1
		} else {
			pos = len(content)
		}
		if h := strings.IndexByte(v, '#'); h >= 0 {
			v = v[:h]
		}
		set(strings.Trim(v, space))
		skip()
	}
	out := make([]envVar, 0, len(vars))
	for _, v := range vars {
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b envVar) int { return strings.Compare(a.key, b.key) })
	return out
}

// defines returns esbuild's define map: import.meta.env as Vite defines it in production,
// process.env.NODE_ENV, and the manifest's own defines, which win.
func defines(env map[string]string, user map[string]string) map[string]string {
	return definesWith(env, user, "/", nil)
}

// definesWith is defines with base as BASE_URL and envRaw, expressions the config defines as
// import.meta.env.NAME, in the import.meta.env object as written (their JSON: a value that is
// not JSON stays out of the object).
func definesWith(env map[string]string, user map[string]string, base string, envRaw map[string]string) map[string]string {
	d := map[string]string{}
	all := map[string]any{"MODE": "production", "PROD": true, "DEV": false, "SSR": false, "BASE_URL": base}
	for k, v := range env {
		all[k] = v
	}
	for k, v := range envRaw {
		if json.Valid([]byte(v)) {
			all[k] = json.RawMessage(v)
		}
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
		// A JSON string is its value; anything else (true, a number, null, an object) its
		// text, as Vite's HTML env replacement writes a define (json.Unmarshal of null into a
		// string gave "", where Vite writes null).
		value := text
		var v any
		if json.Unmarshal([]byte(text), &v) == nil {
			if s, ok := v.(string); ok {
				value = s
			}
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
