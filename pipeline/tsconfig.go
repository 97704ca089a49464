package pipeline

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// solutionTsconfig returns the tsconfig that holds the app's code when the app's
// tsconfig.json is a solution file, as Vite's templates write it ("files": [] and
// "references" to tsconfig.app.json and tsconfig.node.json): esbuild takes the tsconfig.json
// for every file, and would miss the paths and JSX options of the project that holds them.
// Vite follows the references (TypeScript's project references: each file belongs to the
// project whose include or files hold it); esbuild takes one tsconfig for the build, so it
// is the referenced project that holds most of the app's scripts. "" when the tsconfig.json
// is not a solution file, or when no referenced project holds a script.
func solutionTsconfig(root, outDir string) string {
	cfg, ok := readTsconfig(filepath.Join(root, "tsconfig.json"))
	if !ok || len(cfg.References) == 0 || cfg.Include != nil || cfg.Files == nil || len(cfg.Files) > 0 {
		return ""
	}
	scripts := appScripts(root, outDir)
	best, most := "", 0
	for _, ref := range cfg.References {
		p := filepath.Join(root, filepath.FromSlash(ref.Path))
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			p = filepath.Join(p, "tsconfig.json")
		}
		sub, ok := readTsconfig(p)
		if !ok || !strings.HasPrefix(p, root+string(filepath.Separator)) {
			continue
		}
		if n := sub.holds(filepath.Dir(p), scripts); n > most {
			best, most = p, n
		}
	}
	return best
}

// tsconfig is what solutionTsconfig reads of a tsconfig.json. Files is nil when it is not
// written, and empty when it is [].
type tsconfig struct {
	Files      []string `json:"files"`
	Include    []string `json:"include"`
	References []struct {
		Path string `json:"path"`
	} `json:"references"`
}

// holds counts the scripts (slash-separated absolute paths) that the project in dir holds by
// its include (TypeScript's default: everything) or files.
func (c tsconfig) holds(dir string, scripts []string) int {
	base := escapeGlob(filepath.ToSlash(dir))
	var globs []*globPattern
	include := c.Include
	if include == nil && c.Files == nil {
		include = []string{"**/*"}
	}
	for _, p := range include {
		p = strings.TrimPrefix(p, "./")
		if !hasGlobMeta(p) && path.Ext(p) == "" {
			p = strings.TrimSuffix(p, "/") + "/**/*" // a folder: everything in it
		}
		if g, err := compileGlob(path.Join(base, p), false, false); err == nil {
			globs = append(globs, g)
		}
	}
	n := 0
	for _, s := range scripts {
		if slices.ContainsFunc(globs, func(g *globPattern) bool { return g.match(s) }) ||
			slices.ContainsFunc(c.Files, func(f string) bool { return filepath.ToSlash(filepath.Join(dir, f)) == s }) {
			n++
		}
	}
	return n
}

// readTsconfig reads a tsconfig file, which is JSON with comments and trailing commas.
func readTsconfig(p string) (tsconfig, bool) {
	var c tsconfig
	data, err := os.ReadFile(p)
	if err != nil {
		return c, false
	}
	return c, json.Unmarshal(jsonc(data), &c) == nil
}

// jsonc turns JSON with comments and trailing commas (tsconfig's JSONC) into JSON: the
// comments become spaces and a comma before a closing bracket is dropped; strings are left
// as written.
func jsonc(src []byte) []byte {
	out := make([]byte, 0, len(src))
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			end := min(j+1, len(src))
			out = append(out, src[i:end]...)
			i = end - 1
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(string(src[i+2:]), "*/")
			if end < 0 {
				return out
			}
			i += end + 3
			out = append(out, ' ')
		case c == ']' || c == '}':
			k := len(out) - 1
			for k >= 0 && strings.ContainsRune(" \t\r\n", rune(out[k])) {
				k--
			}
			if k >= 0 && out[k] == ',' {
				out[k] = ' '
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// appScripts lists the app's scripts (slash-separated absolute paths), outside node_modules,
// the output folder and dot folders, up to 10,000.
func appScripts(root, outDir string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(out) >= 10000 {
			return filepath.SkipAll
		}
		if d.IsDir() {
			if p != root && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") || p == outDir) {
				return filepath.SkipDir
			}
			return nil
		}
		if scriptFile.MatchString(strings.ToLower(d.Name())) && !strings.HasSuffix(d.Name(), ".d.ts") {
			out = append(out, filepath.ToSlash(p))
		}
		return nil
	})
	return out
}
