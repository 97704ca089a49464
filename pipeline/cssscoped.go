package pipeline

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"
	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/pipeline/internal/nodetool"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
)

// A vite.config's css.modules.generateScopedName, as a pattern ("[name]__[local]___[hash:base64:5]"),
// names a CSS Module's local names as Vite's postcss-modules does: generic-names fills in
// [local], then loader-utils' interpolateName [hash…] (xxhash64 of hashPrefix, the file's path
// relative to the root and the name, by default), [name], [ext], [path], [folder]; then what
// is not a letter, digit, - or _ becomes -. esbuild's local-css loader names classes itself
// (File_name), so a CSS Module of such an app is read here instead, as postcss-modules reads it
// in its default "local" mode: each class (.name) and id (#name) of a selector is local unless
// in :global(…) or after :global, a @keyframes name is local and so are the animation names
// that name one of the file's, and composes: a b [from './other.module.css' | from global]
// adds the other names to the rule's class and is taken out. The stylesheet is then esbuild's
// global CSS with the names in it, and a script's import of it is a module (scopedNamespace)
// whose default export, and a named export for each name that is an identifier, give them.

// scopedNamespace holds the modules that give a CSS Module's names when the config names them.
const scopedNamespace = "miniapp-scoped"

// scopedRulesPrefix starts the specifier by which a scoped module imports its rules.
const scopedRulesPrefix = "miniapp-scoped-css:"

// scopedCSS is a CSS Module read with its names scoped.
type scopedCSS struct {
	css string // its rules, the names scoped, composes taken out, an @import of each composed file first
	// rules is css without the @imports of the composed files.
	rules string
	// names are its local names in the order they first appear, each with what it exports:
	// its scoped name, then the names it composes.
	names []string
	parts map[string][]scopedPart
	froms []string // the files composes names, as written
}

// scopedPart is one name of a local name's export: a name (text), or the export name of
// another module (from).
type scopedPart struct {
	text, from, name string
}

// scopedNamer returns the function that names a local name of the file by the pattern.
func scopedNamer(pattern, hashPrefix, root, file string) func(string) string {
	return func(local string) string {
		return interpolateScoped(strings.ReplaceAll(pattern, "[local]", local), hashPrefix, root, file, local)
	}
}

// hashRef is loader-utils' [<hashType>:hash:<digestType>:<length>].
var hashRef = regexp.MustCompile(`(?i)\[(?:([^\[:\]]+):)?(?:hash|contenthash)(?::([a-z]+\d*(?:safe)?))?(?::(\d+))?\]`)

// interpolateScoped is generic-names' generate: loader-utils' interpolateName of name for the
// file, then the characters a class name cannot hold replaced.
func interpolateScoped(name, hashPrefix, root, file, local string) string {
	rel, _ := filepath.Rel(root, file)
	content := hashPrefix + filepath.ToSlash(rel) + "\x00" + local
	ext, base, dir, folder := "bin", "file", "", ""
	if e := filepath.Ext(file); e != "" {
		ext = e[1:]
	}
	if d := filepath.Dir(file); d != "" {
		base = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		r, _ := filepath.Rel(root, d+string(filepath.Separator)+"_")
		r = regexp.MustCompile(`\.\.(/)?`).ReplaceAllString(filepath.ToSlash(r), "_$1")
		dir = r[:len(r)-1]
		if len(dir) <= 1 {
			dir = ""
		} else {
			folder = path.Base(dir)
		}
	}
	out := hashRef.ReplaceAllStringFunc(name, func(m string) string {
		g := hashRef.FindStringSubmatch(m)
		n, _ := strconv.Atoi(g[3])
		return hashDigest(content, g[1], g[2], n)
	})
	out = strings.NewReplacer("[ext]", ext, "[name]", base, "[path]", dir, "[folder]", folder, "[query]", "").Replace(out)
	var b strings.Builder
	for _, r := range out {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r >= 0xA0 {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	s := b.String()
	if len(s) > 0 && (s[0] >= '0' && s[0] <= '9' || strings.HasPrefix(s, "--") || len(s) > 1 && s[0] == '-' && s[1] >= '0' && s[1] <= '9') {
		s = "_" + s
	}
	return s
}

// hashDigest is loader-utils' getHashDigest for the hash types a pattern may name: xxhash64
// (the default) and the digests hex (the default), base64 and base64url, cut to n characters.
func hashDigest(content, hashType, digestType string, n int) string {
	var sum []byte
	switch strings.ToLower(hashType) {
	case "", "xxhash64":
		sum = binary.BigEndian.AppendUint64(nil, xxhash.Sum64String(content))
	default:
		sum = binary.BigEndian.AppendUint64(nil, xxhash.Sum64String(content)) // (another hash type: xxhash64's, named in the warning)
	}
	var d string
	switch strings.ToLower(digestType) {
	case "base64":
		d = base64.StdEncoding.EncodeToString(sum)
	case "base64url":
		d = base64.RawURLEncoding.EncodeToString(sum)
	default:
		d = hex.EncodeToString(sum)
	}
	if n > 0 && n < len(d) {
		d = d[:n]
	}
	return d
}

// cssTok is one token of a stylesheet.
type cssTok struct {
	tt   css.TokenType
	text string
}

// scopeCSSModule reads the CSS Module src with its local names scoped by name.
func scopeCSSModule(src string, name func(string) string) (*scopedCSS, error) {
	var toks []cssTok
	l := css.NewLexer(parse.NewInputString(src))
	for {
		tt, data := l.Next()
		if tt == css.ErrorToken {
			break
		}
		toks = append(toks, cssTok{tt, string(data)})
	}
	out := &scopedCSS{parts: map[string][]scopedPart{}}
	local := func(n string) string {
		if _, ok := out.parts[n]; !ok {
			out.names = append(out.names, n)
			out.parts[n] = []scopedPart{{text: name(n)}}
		}
		return out.parts[n][0].text
	}
	// The file's keyframes, which its animation names may name.
	keyframes := map[string]bool{}
	for i, t := range toks {
		if t.tt == css.AtKeywordToken && strings.HasSuffix(strings.ToLower(t.text), "keyframes") {
			if j := nextSig(toks, i+1); j < len(toks) && toks[j].tt == css.IdentToken {
				keyframes[toks[j].text] = true
			}
		}
	}
	type block int
	const (
		rules  block = iota // the sheet, a group rule: rules
		style               // a style rule: declarations and nested rules
		frames              // @keyframes: keyframe rules, not scoped
		decls               // @font-face and the like, a keyframe: declarations
	)
	stack := []block{rules}
	var body strings.Builder
	var ruleClasses [][]string // for each open style rule, the local classes of its selector
	var item []cssTok
	depth := 0
	flush := func(end string) error {
		top := stack[len(stack)-1]
		s, err := "", error(nil)
		switch {
		case len(item) == 0:
		case end == "{":
			j := nextSig(item, 0)
			switch {
			case j < len(item) && item[j].tt == css.AtKeywordToken:
				kw := strings.ToLower(item[j].text)
				switch {
				case strings.HasSuffix(kw, "keyframes"):
					s = joinToks(item[:j+1])
					if k := nextSig(item, j+1); k < len(item) && item[k].tt == css.IdentToken {
						s += joinToks(item[j+1:k]) + local(item[k].text) + joinToks(item[k+1:])
					} else {
						s += joinToks(item[j+1:])
					}
					stack = append(stack, frames)
				case kw == "@media" || kw == "@supports" || kw == "@layer" || kw == "@container" || kw == "@scope" || kw == "@document" || kw == "@starting-style":
					s = joinToks(item)
					if top == style {
						stack = append(stack, style)
					} else {
						stack = append(stack, rules)
					}
				default:
					s = joinToks(item)
					stack = append(stack, decls)
				}
				ruleClasses = append(ruleClasses, nil)
			case top == frames || top == decls:
				s = joinToks(item)
				stack = append(stack, decls)
				ruleClasses = append(ruleClasses, nil)
			default:
				var classes []string
				s, classes = scopeSelector(item, local)
				stack = append(stack, style)
				ruleClasses = append(ruleClasses, classes)
			}
		default: // a declaration or a statement, ended by ; or }
			j := nextSig(item, 0)
			prop := ""
			if j < len(item) && item[j].tt == css.IdentToken {
				if k := nextSig(item, j+1); k < len(item) && item[k].tt == css.ColonToken {
					prop = strings.ToLower(item[j].text)
				}
			}
			switch {
			case prop == "composes" && top == style:
				var classes []string
				if n := len(ruleClasses); n > 0 {
					classes = ruleClasses[n-1]
				}
				if len(classes) != 1 {
					return fmt.Errorf("composes is only allowed in a rule whose selector is one class, as postcss-modules requires")
				}
				if err = out.compose(classes[0], item[nextSig(item, j+1)+1:], local); err != nil {
					return err
				}
				// Taken out; its white space before stays.
				s = joinToks(item[:j])
				if end == ";" {
					end = ""
				}
			case (prop == "animation" || prop == "animation-name") && top != frames:
				var b strings.Builder
				for k, t := range item {
					if k > j && t.tt == css.IdentToken && keyframes[t.text] {
						b.WriteString(local(t.text))
					} else {
						b.WriteString(t.text)
					}
				}
				s = b.String()
			default:
				s = joinToks(item)
			}
		}
		body.WriteString(s + end)
		item = nil
		if end == "}" && len(stack) > 1 {
			stack = stack[:len(stack)-1]
			ruleClasses = ruleClasses[:len(ruleClasses)-1]
		}
		return err
	}
	for _, t := range toks {
		switch t.tt {
		case css.LeftParenthesisToken, css.FunctionToken, css.LeftBracketToken:
			depth++
		case css.RightParenthesisToken, css.RightBracketToken:
			if depth > 0 {
				depth--
			}
		}
		if depth == 0 {
			switch t.tt {
			case css.LeftBraceToken:
				if err := flush("{"); err != nil {
					return nil, err
				}
				continue
			case css.SemicolonToken:
				if err := flush(";"); err != nil {
					return nil, err
				}
				continue
			case css.RightBraceToken:
				if err := flush("}"); err != nil {
					return nil, err
				}
				continue
			}
		}
		item = append(item, t)
	}
	if err := flush(""); err != nil {
		return nil, err
	}
	var head strings.Builder
	for _, f := range out.froms {
		head.WriteString("@import " + strconv.Quote(f) + ";\n")
	}
	out.rules = body.String()
	out.css = head.String() + out.rules
	return out, nil
}

// compose adds to class the names of a composes value (the tokens after its colon).
func (s *scopedCSS) compose(class string, value []cssTok, local func(string) string) error {
	var names []string
	from := ""
	for k := 0; k < len(value); k++ {
		t := value[k]
		switch {
		case t.tt == css.WhitespaceToken || t.tt == css.CommentToken:
		case t.tt == css.IdentToken && t.text == "from":
			j := nextSig(value, k+1)
			if j >= len(value) {
				return fmt.Errorf("composes: from names no file")
			}
			switch v := value[j]; {
			case v.tt == css.StringToken:
				from = v.text[1 : len(v.text)-1]
			case v.tt == css.IdentToken && v.text == "global":
				from = "global"
			default:
				return fmt.Errorf("composes: from %s is not a quoted file or global", v.text)
			}
			k = j
		case t.tt == css.IdentToken:
			names = append(names, t.text)
		default:
			return fmt.Errorf("composes: %q is not a class name", t.text)
		}
	}
	for _, n := range names {
		switch from {
		case "":
			s.parts[class] = append(s.parts[class], scopedPart{text: local(n)})
		case "global":
			s.parts[class] = append(s.parts[class], scopedPart{text: n})
		default:
			s.parts[class] = append(s.parts[class], scopedPart{from: from, name: n})
		}
	}
	if from != "" && from != "global" && !slices.Contains(s.froms, from) {
		s.froms = append(s.froms, from)
	}
	return nil
}

// scopeSelector scopes the local classes and ids of a selector list (the prelude tokens) and
// returns it with the local classes of its one selector (nil for a list).
func scopeSelector(toks []cssTok, local func(string) string) (string, []string) {
	var b strings.Builder
	var classes []string
	list := false
	var walk func(toks []cssTok, global bool)
	walk = func(toks []cssTok, global bool) {
		mode := global
		for i := 0; i < len(toks); i++ {
			t := toks[i]
			switch {
			case t.tt == css.CommaToken:
				mode = global
				list = true
				b.WriteString(t.text)
			case t.tt == css.ColonToken && i+1 < len(toks) && toks[i+1].tt == css.IdentToken && (toks[i+1].text == "global" || toks[i+1].text == "local"):
				mode = toks[i+1].text == "global"
				i++
				if i+1 < len(toks) && toks[i+1].tt == css.WhitespaceToken {
					i++
				}
			case t.tt == css.ColonToken && i+1 < len(toks) && toks[i+1].tt == css.FunctionToken && (toks[i+1].text == "global(" || toks[i+1].text == "local("):
				end, d := i+2, 1
				for ; end < len(toks) && d > 0; end++ {
					switch toks[end].tt {
					case css.LeftParenthesisToken, css.FunctionToken:
						d++
					case css.RightParenthesisToken:
						d--
					}
				}
				walk(toks[i+2:end-1], toks[i+1].text == "global(")
				i = end - 1
			case t.tt == css.DelimToken && t.text == "." && i+1 < len(toks) && toks[i+1].tt == css.IdentToken:
				n := toks[i+1].text
				if mode {
					b.WriteString("." + n)
				} else {
					b.WriteString("." + local(n))
					classes = append(classes, n)
				}
				i++
			case t.tt == css.HashToken && !mode:
				b.WriteString("#" + local(t.text[1:]))
			case t.tt == css.LeftBracketToken:
				for ; i < len(toks) && toks[i].tt != css.RightBracketToken; i++ {
					b.WriteString(toks[i].text)
				}
				if i < len(toks) {
					b.WriteString(toks[i].text)
				}
			default:
				b.WriteString(t.text)
			}
		}
	}
	walk(toks, false)
	if list {
		classes = nil
	}
	return b.String(), classes
}

// nextSig returns the index of the first token from i that is not white space or a comment.
func nextSig(toks []cssTok, i int) int {
	for i < len(toks) && (toks[i].tt == css.WhitespaceToken || toks[i].tt == css.CommentToken) {
		i++
	}
	return i
}

func joinToks(toks []cssTok) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(t.text)
	}
	return b.String()
}

// scopedModules adds to a build the modules of a script's import of a CSS Module when the config
// names its classes: registered for the scripts' imports, or, with a localsConvention, for the
// convention's module's (cssmodules.go), which then gives the names by it.
func (b *bundler) scopedModules(pb api.PluginBuild) {
	if !b.scopesModules() {
		return
	}
	resolve := func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		ask := askedBy(a.PluginData)
		if !ask.answers(byScoped) || a.Kind != api.ResolveJSImportStatement && a.Kind != api.ResolveJSDynamicImport && a.Kind != api.ResolveJSRequireCall {
			return api.OnResolveResult{}, nil
		}
		r := pb.Resolve(a.Path, again(a, byScoped))
		if len(r.Errors) > 0 || r.Namespace != "file" || r.Suffix != "" {
			return api.OnResolveResult{Path: r.Path, Namespace: r.Namespace, Suffix: r.Suffix, PluginData: r.PluginData, Errors: r.Errors, Warnings: r.Warnings}, nil
		}
		return api.OnResolveResult{Path: b.rel(r.Path), Namespace: scopedNamespace}, nil // by its path in the app folder, as the bundle names the module (see styleStub)
	}
	pb.OnResolve(api.OnResolveOptions{Filter: cssModuleFilter, Namespace: cssModNamespace}, resolve)
	if b.vite.localsConvention() == "" {
		onAppResolve(pb, cssModuleFilter, resolve)
	}
	pb.OnResolve(api.OnResolveOptions{Filter: `.*`, Namespace: scopedNamespace}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		if p, ok := strings.CutPrefix(a.Path, scopedRulesPrefix); ok {
			// Its rules, as a plain stylesheet a script imports: added when a dynamic
			// import runs when only one reaches it (lazycss.go).
			return api.OnResolveResult{Path: p, Namespace: styleStubNamespace}, nil
		}
		o := again(a, byScoped)
		o.Kind = api.ResolveJSImportStatement
		r := pb.Resolve(a.Path, o)
		if len(r.Errors) > 0 || r.Namespace != "file" {
			return api.OnResolveResult{Errors: r.Errors}, nil
		}
		return api.OnResolveResult{Path: b.rel(r.Path), Namespace: scopedNamespace}, nil // by its path in the app folder, as the bundle names the module (see styleStub)
	})
	pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: scopedNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
		file := b.abs(a.Path)
		src, errs := b.stylesheet(file)
		if errs != nil {
			return api.OnLoadResult{Errors: errs}, nil
		}
		sc, err := b.scopeModule(file, src)
		if err != nil {
			return api.OnLoadResult{Errors: []api.Message{{Text: err.Error(), Location: &api.Location{File: file}}}}, nil
		}
		text := scopedNamesJS(sc, scopedRulesPrefix+a.Path, "")
		return api.OnLoadResult{Contents: &text, Loader: api.LoaderJS, ResolveDir: filepath.Dir(file)}, nil
	})
}

// scopedNamesJS returns the module of a script's import of the CSS Module read as sc: it
// imports the files composes names (their rules first, as postcss-modules imports them), then
// the module of its rules (rules, a specifier its plugin resolves), and exports its names, by
// the convention conv when one is given (cssmodules.go), else as written.
func scopedNamesJS(sc *scopedCSS, rules, conv string) string {
	var js strings.Builder
	for i, f := range sc.froms {
		fmt.Fprintf(&js, "import f%d from %s;\n", i, jsString(f))
	}
	js.WriteString("import " + jsString(rules) + ";\n")
	js.WriteString("const names = {\n")
	for _, n := range sc.names {
		var vals []string
		for _, p := range sc.parts[n] {
			if p.from != "" {
				vals = append(vals, fmt.Sprintf("f%d[%s]", indexOf(sc.froms, p.from), jsString(p.name)))
			} else {
				vals = append(vals, jsString(p.text))
			}
		}
		fmt.Fprintf(&js, "  %s: %s,\n", jsString(n), strings.Join(vals, ` + " " + `))
	}
	js.WriteString("};\n")
	if conv != "" {
		js.WriteString(localsJS + "\nexport default localsBy(names, " + jsString(conv) + ");\n")
	} else {
		js.WriteString("export default names;\n")
	}
	for _, n := range sc.names {
		if exportName.MatchString(n) && !reservedWord[n] {
			fmt.Fprintf(&js, "export const %s = names[%s];\n", n, jsString(n))
		}
	}
	return js.String()
}

// scopesModules reports whether the config names CSS Modules' classes: a generateScopedName
// pattern, or a function, which the CSS tools' Node process calls.
func (b *bundler) scopesModules() bool {
	return b.vite != nil && b.vite.CSSModules != nil && (b.vite.CSSModules.ScopedName != "" || b.vite.CSSModules.ScopedNameIsFunc && b.vite.Code != "")
}

// scopeModule reads the CSS Module file (its stylesheet css, as built) with its names scoped
// by the config: its pattern, or its function, called once for the file's names.
func (b *bundler) scopeModule(file, css string) (*scopedCSS, error) {
	m := b.vite.CSSModules
	if m.ScopedName != "" {
		return scopeCSSModule(css, scopedNamer(m.ScopedName, m.HashPrefix, b.root, file))
	}
	// A first reading gives the names; the function names them all in one call.
	first, err := scopeCSSModule(css, func(n string) string { return n })
	if err != nil || len(first.names) == 0 {
		return first, err
	}
	opts, _ := json.Marshal(map[string]any{"filename": file, "source": css, "names": first.names})
	out, err := b.css.runner.Run(b.ctx, nodetool.Request{Tool: "scopednames", File: b.vite.File, CSS: b.vite.Code, Options: opts})
	if err != nil {
		var te *nodetool.ToolError
		var to *nodetool.TimeoutError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("css.modules.generateScopedName in %s threw for %s: %s", filepath.Base(b.vite.File), filepath.Base(file), te.Message)
		}
		if errors.As(err, &to) {
			return nil, fmt.Errorf("css.modules.generateScopedName in %s did not finish for %s in %v: it loops or awaits what never comes", filepath.Base(b.vite.File), filepath.Base(file), to.After)
		}
		return nil, fmt.Errorf("css.modules.generateScopedName in %s: %w", filepath.Base(b.vite.File), err)
	}
	var names []string
	if err := json.Unmarshal([]byte(out), &names); err != nil || len(names) != len(first.names) {
		return nil, fmt.Errorf("css.modules.generateScopedName in %s gave no name for each of %s's", filepath.Base(b.vite.File), filepath.Base(file))
	}
	byName := map[string]string{}
	for i, n := range first.names {
		byName[n] = names[i]
	}
	return scopeCSSModule(css, func(n string) string { return byName[n] })
}

func indexOf(l []string, s string) int {
	for i, x := range l {
		if x == s {
			return i
		}
	}
	return -1
}

// reservedWord are the words a const cannot be named.
var reservedWord = map[string]bool{"break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true,
	"debugger": true, "default": true, "delete": true, "do": true, "else": true, "enum": true, "export": true, "extends": true,
	"false": true, "finally": true, "for": true, "function": true, "if": true, "import": true, "in": true, "instanceof": true,
	"new": true, "null": true, "return": true, "super": true, "switch": true, "this": true, "throw": true, "true": true,
	"try": true, "typeof": true, "var": true, "void": true, "while": true, "with": true, "let": true, "static": true,
	"yield": true, "await": true, "implements": true, "interface": true, "package": true, "private": true, "protected": true, "public": true}
