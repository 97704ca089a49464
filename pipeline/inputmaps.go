package pipeline

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/evanw/esbuild/pkg/api"
)

// A build that writes a source map (--sourcemap, bundle dev) makes esbuild read the map that
// a loaded script's or stylesheet's "//# sourceMappingURL=" comment names, from the disk and
// through no plugin: a file of the app could name a map outside it ("../secret/x.map", a
// file: URL, a link out), whose sources and their text esbuild then put into the page's map
// (the kernel's fence keeps it out; the path checks did not see it). guardInputMaps checks,
// as esbuild reads them, the comments of every text a plugin gives esbuild and of every file
// esbuild reads itself, and refuses one that names a file outside, at the comment.

// guardInputMaps returns plugins with each text their OnLoad callbacks give esbuild checked,
// and one plugin more, last, that checks a file in the file namespace no callback loaded
// (esbuild reads it itself); outside says why a path (the map's, as esbuild would read it) is
// outside what the build may read, or nil. Where the build writes no map, esbuild reads none,
// and plugins are returned as they are.
func guardInputMaps(plugins []api.Plugin, writesMap bool, loaders map[string]api.Loader, outside func(string) *api.Message) []api.Plugin {
	if !writesMap {
		return plugins
	}
	// check refuses the first comment of text (loaded as file, whose imports resolve from dir;
	// base is its path where it is a file, "" in another namespace) whose map, or a source of
	// it whose text esbuild reads, is outside.
	check := func(file, text, dir, base string, loader api.Loader) *api.Message {
		if !mapsRead(loader) {
			return nil
		}
		refuse := func(c mapComment, what string, m *api.Message) *api.Message {
			loc := at(file, text, c.off, "", "").Location
			return &api.Message{Text: what + m.Text, Location: loc, Notes: append(m.Notes, api.Note{Text: "esbuild reads the map a file's sourceMappingURL comment names from the disk, " +
				"and each of its sources whose text the map's sourcesContent does not hold: remove the comment, or keep the map and those sources inside (or their texts in sourcesContent)"})}
		}
		for _, c := range mapComments(text) {
			data, isData := dataURLText(c.url)
			mapFile := base
			if !isData {
				p, ok := mapPath(c.url, dir)
				if !ok {
					continue
				}
				if m := outside(p); m != nil {
					return refuse(c, "the source map this comment names: ", m)
				}
				b, err := os.ReadFile(p)
				if err != nil {
					continue // esbuild reads none
				}
				data, mapFile = string(b), p
			}
			for _, s := range mapSourcesRead(data, mapFile) {
				if m := outside(s); m != nil {
					return refuse(c, "a source of the source map this comment names, whose text esbuild reads: ", m)
				}
			}
		}
		return nil
	}
	loaderOf := func(path string, l api.Loader) api.Loader {
		if l != api.LoaderNone {
			return l
		}
		if own, ok := loaders[strings.ToLower(filepath.Ext(path))]; ok {
			return own
		}
		return defaultLoader(path)
	}
	out := make([]api.Plugin, 0, len(plugins)+1)
	for _, p := range plugins {
		setup := p.Setup
		out = append(out, api.Plugin{Name: p.Name, Setup: func(pb api.PluginBuild) {
			onLoad := pb.OnLoad
			pb.OnLoad = func(o api.OnLoadOptions, cb func(api.OnLoadArgs) (api.OnLoadResult, error)) {
				onLoad(o, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
					r, err := cb(a)
					if err != nil || r.Contents == nil || len(r.Errors) > 0 {
						return r, err
					}
					dir := r.ResolveDir
					if dir == "" && a.Namespace == "file" {
						dir = filepath.Dir(a.Path)
					}
					// Named as esbuild names a place in another namespace than files.
					file := a.Path
					if a.Namespace != "file" && a.Namespace != "" {
						file = a.Namespace + ":" + a.Path
					}
					base := ""
					if a.Namespace == "file" || a.Namespace == "" {
						base = a.Path
					}
					if m := check(file, *r.Contents, dir, base, loaderOf(a.Path, r.Loader)); m != nil {
						r.Errors = append(r.Errors, *m)
					}
					return r, nil
				})
			}
			setup(pb)
		}})
	}
	out = append(out, api.Plugin{Name: "input-maps", Setup: func(pb api.PluginBuild) {
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "file"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			if !mapsRead(loaderOf(a.Path, api.LoaderNone)) {
				return api.OnLoadResult{}, nil
			}
			src, err := os.ReadFile(a.Path)
			if err != nil {
				return api.OnLoadResult{}, nil // esbuild reports it
			}
			if m := check(a.Path, string(src), filepath.Dir(a.Path), a.Path, loaderOf(a.Path, api.LoaderNone)); m != nil {
				return api.OnLoadResult{Errors: []api.Message{*m}}, nil
			}
			return api.OnLoadResult{}, nil
		})
	}})
	return out
}

// mapsRead reports whether esbuild reads a source map comment in what it loads with l.
func mapsRead(l api.Loader) bool {
	switch l {
	case api.LoaderJS, api.LoaderJSX, api.LoaderTS, api.LoaderTSX, api.LoaderCSS, api.LoaderLocalCSS, api.LoaderGlobalCSS:
		return true
	}
	return false
}

// defaultLoader is the loader esbuild gives a file by its extension, for the loaders that
// read a source map comment (LoaderNone for the others).
func defaultLoader(path string) api.Loader {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".js", ".mjs", ".cjs":
		return api.LoaderJS
	case ".jsx":
		return api.LoaderJSX
	case ".ts", ".mts", ".cts":
		return api.LoaderTS
	case ".tsx":
		return api.LoaderTSX
	case ".css":
		return api.LoaderCSS
	}
	return api.LoaderNone
}

// mapComment is a source map comment's URL and its offset in the text.
type mapComment struct {
	url string
	off int
}

// mapComments returns the URLs of text's source map comments as esbuild's lexers find them
// ("//# sourceMappingURL=" or "//@ …", "/*# …" or "/*@ …"), every one: esbuild reads the
// last comment's, and one inside a string is taken too, which errs on the side of refusing.
// The URL runs to white space, which the JavaScript lexer reads as ECMAScript's (and a line
// comment to its line's end) and the CSS lexer as ASCII's, and in a /* comment to its */:
// each reading of it is returned, and Unicode's white space too.
func mapComments(text string) []mapComment {
	const pragma = " sourceMappingURL="
	var out []mapComment
	for i := 0; ; {
		j := strings.Index(text[i:], pragma)
		if j < 0 {
			return out
		}
		at := i + j
		i = at + len(pragma)
		if at < 3 || (text[at-1] != '#' && text[at-1] != '@') || text[at-3] != '/' || (text[at-2] != '/' && text[at-2] != '*') {
			continue
		}
		rest := text[i:]
		ascii := strings.IndexAny(rest, " \t\n\r\f")
		if ascii < 0 {
			ascii = len(rest)
		}
		unicodeEnd := strings.IndexFunc(rest, func(r rune) bool { return unicode.IsSpace(r) || r == '\ufeff' || r == '\u2028' || r == '\u2029' })
		if unicodeEnd < 0 {
			unicodeEnd = len(rest)
		}
		// esbuild's JavaScript lexer: to its white space (not every Unicode space: U+0085 is
		// none), or a line comment's line end, or a /* comment's end, which a line end inside
		// it is not.
		block := text[at-2] == '*'
		jsEnd := strings.IndexFunc(rest, func(r rune) bool {
			return jsWhitespace(r) || !block && (r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029')
		})
		if jsEnd < 0 {
			jsEnd = len(rest)
		}
		ends := []int{ascii, unicodeEnd, jsEnd}
		if c := strings.Index(rest, "*/"); c >= 0 {
			ends = append(ends, min(ascii, c), min(unicodeEnd, c), min(jsEnd, c))
		}
		slices.Sort(ends)
		for _, e := range slices.Compact(ends) {
			if e > 0 {
				out = append(out, mapComment{rest[:e], i})
			}
		}
	}
}

// jsWhitespace is esbuild's JavaScript white space (js_ast.IsWhitespace): the ECMAScript
// WhiteSpace code points, no line terminator among them.
func jsWhitespace(r rune) bool {
	switch r {
	case '\t', '\v', '\f', ' ', '\u00a0', '\u1680', '\u202f', '\u205f', '\u3000', '\ufeff':
		return true
	}
	return r >= '\u2000' && r <= '\u200a'
}

// mapPath returns the file a source map comment's URL names, as esbuild resolves it against
// dir: a data: URL, a URL with another scheme or a host, or one that does not parse, names
// none (esbuild reads none).
func mapPath(raw, dir string) (string, bool) {
	if strings.HasPrefix(strings.ToLower(raw), "data:") {
		return "", false
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "" && u.Scheme != "file") || (u.Host != "" && u.Host != "localhost") {
		return "", false
	}
	if u.Scheme == "file" {
		return filepath.FromSlash(u.Path), true
	}
	if dir == "" {
		return "", false
	}
	// esbuild's file URL of the folder, whose backslashes are slashes (a folder "a\..\.." is
	// two folders up in it).
	base := fileURL(dir)
	base.Path = strings.TrimSuffix(base.Path, "/") + "/"
	return filepath.FromSlash(base.ResolveReference(u).Path), true
}

// dataURLText returns the text of a source map comment's data: URL as esbuild decodes it
// (resolver.ParseDataURL, DecodeData): "data:" as written, the MIME type to the first comma,
// the rest base64 where the type ends in ";base64", else percent-decoded. ok is false for
// another URL; a data: URL that does not decode gives "" (esbuild reads no map).
func dataURLText(u string) (string, bool) {
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return "", false
	}
	mime, data, ok := strings.Cut(rest, ",")
	if !ok {
		return "", false
	}
	if strings.HasSuffix(mime, ";base64") {
		b, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			return "", true
		}
		return string(b), true
	}
	text, err := url.PathUnescape(data)
	if err != nil {
		return "", true
	}
	return text, true
}

// mapSourcesRead returns the files esbuild reads for the source map m (JSON), found at the
// file mapFile ("" where it has no path of a file: a data: URL of code in another
// namespace): each source, of the map or of each of its sections, whose text sourcesContent
// does not hold (no string there; an empty one is taken for none, which errs on the side of
// refusing), resolved as esbuild's source map parser and loader do: sourceRoot up to its last
// slash before it, then against the map's file URL; an absolute path is a file URL, and only
// a file URL is read. A map that does not parse names none.
func mapSourcesRead(m, mapFile string) []string {
	var top map[string]json.RawMessage
	if json.Unmarshal([]byte(m), &top) != nil {
		return nil
	}
	maps := []map[string]json.RawMessage{top}
	var sections []struct {
		Map map[string]json.RawMessage `json:"map"`
	}
	if raw, ok := top["sections"]; ok && json.Unmarshal(raw, &sections) == nil {
		maps = maps[:0]
		for _, s := range sections {
			if s.Map != nil {
				maps = append(maps, s.Map)
			}
		}
	}
	var base *url.URL
	if mapFile != "" {
		base = fileURL(mapFile)
	}
	var out []string
	for _, sm := range maps {
		var root string
		json.Unmarshal(sm["sourceRoot"], &root)
		prefix := ""
		if root != "" {
			if i := strings.LastIndexByte(root, '/'); i >= 0 {
				prefix = root[:i+1]
			} else {
				prefix = root + "/"
			}
		}
		var sources []json.RawMessage
		json.Unmarshal(sm["sources"], &sources)
		var contents []json.RawMessage
		json.Unmarshal(sm["sourcesContent"], &contents)
		for i, raw := range sources {
			var src string
			if json.Unmarshal(raw, &src) != nil {
				continue // esbuild names it "", which is no file URL
			}
			if i < len(contents) {
				var text string
				if json.Unmarshal(contents[i], &text) == nil && text != "" {
					continue // its text is the map's: nothing is read
				}
			}
			u, err := url.Parse(prefix + src)
			if err != nil {
				continue
			}
			if base != nil {
				u = base.ResolveReference(u)
			}
			s := u.String()
			if filepath.IsAbs(s) {
				s = fileURL(s).String()
			}
			if u, err := url.Parse(s); err == nil && u.Scheme == "file" && (u.Host == "" || u.Host == "localhost") && strings.HasPrefix(u.Path, "/") {
				out = append(out, filepath.FromSlash(u.Path))
			}
		}
	}
	return out
}

// fileURL is esbuild's file URL of the path p (helpers.FileURLFromFilePath): its backslashes
// are slashes.
func fileURL(p string) *url.URL {
	p = strings.ReplaceAll(p, `\`, "/")
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return &url.URL{Scheme: "file", Path: p}
}
