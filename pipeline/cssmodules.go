package pipeline

import (
	"encoding/json"
	"path/filepath"

	"github.com/evanw/esbuild/pkg/api"
)

// A vite.config's css.modules.localsConvention, as postcss-modules (Vite's) applies it to the
// names a CSS Module exports: camelCase (each name and its lodash camelCase), camelCaseOnly,
// dashes (each name and its dashes turned to camel case: foo-bar, fooBar), dashesOnly.
// esbuild's local-css loader exports each name as written; an import of a CSS Module from a
// script then goes through a module of bundle's whose default export holds the names the
// convention gives (its named exports stay esbuild's).

// cssModNamespace holds the modules that give a CSS Module's names by the convention.
const cssModNamespace = "miniapp-cssmod"

// cssModuleFilter matches the files that are CSS Modules (cssModuleExts).
const cssModuleFilter = `(?i)\.module\.(css|scss|sass|less|styl|stylus)$`

// localsConventions are the conventions applied; another is warned of (cssModulesWarning).
var localsConventions = map[string]bool{"camelCase": true, "camelCaseOnly": true, "dashes": true, "dashesOnly": true}

// localsConvention returns the config's convention when bundle applies it, "" otherwise.
func (c *viteConfig) localsConvention() string {
	if c == nil || c.CSSModules == nil || !localsConventions[c.CSSModules.LocalsConvention] {
		return ""
	}
	return c.CSSModules.LocalsConvention
}

// cssModuleConvention adds to a build the modules that export a CSS Module's names by the
// config's localsConvention, when it sets one.
func (b *bundler) cssModuleConvention(pb api.PluginBuild) {
	conv := b.vite.localsConvention()
	if conv == "" {
		return
	}
	onAppResolve(pb, cssModuleFilter, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		ask := askedBy(a.PluginData)
		if !ask.answers(byConvention) {
			return api.OnResolveResult{}, nil
		}
		switch a.Kind {
		case api.ResolveJSImportStatement, api.ResolveJSDynamicImport, api.ResolveJSRequireCall:
		default:
			return api.OnResolveResult{}, nil // composes, @import: the stylesheet's own
		}
		r := pb.Resolve(a.Path, again(a, byConvention))
		if len(r.Errors) > 0 || r.Namespace != "file" {
			return api.OnResolveResult{Errors: r.Errors}, nil
		}
		// By its path in the app folder, as the bundle names the module (see styleStub).
		return api.OnResolveResult{Path: b.rel(r.Path), Namespace: cssModNamespace}, nil
	})
	pb.OnResolve(api.OnResolveOptions{Filter: `.*`, Namespace: cssModNamespace}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		return api.OnResolveResult{Path: a.Path, Namespace: "file"}, nil
	})
	pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: cssModNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
		file := b.abs(a.Path)
		p, _ := json.Marshal(file)
		c, _ := json.Marshal(conv)
		js := "import m from " + string(p) + ";\nexport * from " + string(p) + ";\n" + localsJS + "\nexport default localsBy(m, " + string(c) + ");\n"
		return api.OnLoadResult{Contents: &js, Loader: api.LoaderJS, ResolveDir: filepath.Dir(file)}, nil
	})
}

// localsJS gives a CSS Module's names by a convention, as postcss-modules does: dashes turns
// each run of dashes and the character after it into that character upper-cased; camelCase is
// lodash.camelcase's (4.3, which postcss-modules uses): the name's words (a capital and its
// small letters, a run of capitals before another word, small letters, digits; apostrophes
// dropped, anything else between), the first lower-cased, the others capitalized. A name with
// a character past ASCII keeps only its own form under camelCase (bundle does not fold
// Latin-1 letters as lodash's deburr does).
const localsJS = `function localsBy(m, conv) {
  const dashes = (s) => s.replace(/-+(\w)/g, (_, c) => c.toUpperCase());
  const camel = (s) => {
    if (/[^\x00-\x7f]/.test(s)) return s;
    const words = s.replace(/['\u2019]/g, "").match(/[A-Z]?[a-z]+(?=[^A-Za-z0-9]|[A-Z]|$)|[A-Z]+(?=[^A-Za-z0-9]|[A-Z][a-z]|$)|[A-Z]?[a-z]+|[A-Z]+|\d+/g) || [];
    return words.map((w, i) => (w = w.toLowerCase(), i ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join("");
  };
  const out = {};
  for (const k of Object.keys(m)) {
    if (conv === "camelCase" || conv === "dashes") out[k] = m[k];
    out[conv.startsWith("camelCase") ? camel(k) : dashes(k)] = m[k];
  }
  return out;
}`
