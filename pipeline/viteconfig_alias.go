package pipeline

// A vite.config's resolve.alias: read from the runner's description of the config, applied as
// Vite's alias plugin (@rollup/plugin-alias) applies it, JavaScript's regular expressions and
// replacement strings included; the CSS tools' runner is given them too.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/miniapp/bundle/pipeline/internal/nodetool"
)

// parseAliases reads resolve.alias, an array of {find, replacement} (find a string or a
// regular expression) or an object, in the order written; bad reports an entry it cannot use.
func parseAliases(raw json.RawMessage, bad func(key, why string)) []viteAlias {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var out []viteAlias
	var arr []struct {
		Find           json.RawMessage `json:"find"`
		Replacement    string          `json:"replacement"`
		CustomResolver json.RawMessage `json:"customResolver"`
	}
	if json.Unmarshal(raw, &arr) == nil {
		for i, a := range arr {
			al := viteAlias{Replacement: a.Replacement, Custom: len(a.CustomResolver) > 0 && string(a.CustomResolver) != "null"}
			var s string
			var re struct{ Regex, Flags string }
			switch {
			case json.Unmarshal(a.Find, &s) == nil:
				al.Find = s
			case json.Unmarshal(a.Find, &re) == nil && re.Regex != "":
				rx, err := jsRegexp(re.Regex, re.Flags)
				if err != nil {
					bad(fmt.Sprintf("resolve.alias[%d].find", i), fmt.Sprintf("/%s/%s is a regular expression bundle cannot read (%v)", re.Regex, re.Flags, err))
					continue
				}
				al.Regex, al.Source, al.Flags = rx, re.Regex, re.Flags
			default:
				bad(fmt.Sprintf("resolve.alias[%d].find", i), "is neither a string nor a regular expression")
				continue
			}
			out = append(out, al)
		}
		return out
	}
	var obj map[string]string
	if json.Unmarshal(raw, &obj) == nil {
		for _, k := range orderedKeys(raw) {
			out = append(out, viteAlias{Find: k, Replacement: obj[k]})
		}
	}
	return out
}

// jsRegexp compiles a JavaScript regular expression's source and flags as Go's RE2 reads
// them (i, m and s flags); one RE2 does not take (a lookahead, a backreference) is an error.
func jsRegexp(src, flags string) (*regexp.Regexp, error) {
	var f string
	for _, c := range flags {
		if strings.ContainsRune("ims", c) {
			f += string(c)
		}
	}
	if f != "" {
		src = "(?" + f + ")" + src
	}
	return regexp.Compile(src)
}

// jsReplace replaces the first match of rx in s as JavaScript's String.prototype.replace
// does with a replacement string: $$, $&, $` and $', $1 to $99, $<name>.
func jsReplace(rx *regexp.Regexp, s, repl string) string {
	m := rx.FindStringSubmatchIndex(s)
	if m == nil {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:m[0]])
	groups := len(m)/2 - 1
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '$' || i+1 == len(repl) {
			b.WriteByte(c)
			continue
		}
		n := repl[i+1]
		switch {
		case n == '$':
			b.WriteByte('$')
			i++
		case n == '&':
			b.WriteString(s[m[0]:m[1]])
			i++
		case n == '`':
			b.WriteString(s[:m[0]])
			i++
		case n == '\'':
			b.WriteString(s[m[1]:])
			i++
		case n >= '0' && n <= '9':
			// Two digits when they name a group, else one (JavaScript's rule).
			num, width := int(n-'0'), 1
			if i+2 < len(repl) && repl[i+2] >= '0' && repl[i+2] <= '9' {
				if two := num*10 + int(repl[i+2]-'0'); two >= 1 && two <= groups {
					num, width = two, 2
				}
			}
			if num < 1 || num > groups {
				b.WriteByte(c)
				continue
			}
			if m[2*num] >= 0 {
				b.WriteString(s[m[2*num]:m[2*num+1]])
			}
			i += width
		case n == '<':
			end := strings.IndexByte(repl[i:], '>')
			if end < 0 {
				b.WriteByte(c)
				continue
			}
			name := repl[i+2 : i+end]
			if k := rx.SubexpIndex(name); k > 0 && m[2*k] >= 0 {
				b.WriteString(s[m[2*k]:m[2*k+1]])
			}
			i += end
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString(s[m[1]:])
	return b.String()
}

// apply returns the import spec as the alias rewrites it, and whether it matched.
func (a viteAlias) apply(spec string) (string, bool) {
	if a.Regex != nil {
		if !a.Regex.MatchString(spec) {
			return "", false
		}
		return jsReplace(a.Regex, spec, a.Replacement), true
	}
	if spec == a.Find {
		return a.Replacement, true
	}
	if strings.HasPrefix(spec, a.Find+"/") {
		return a.Replacement + spec[len(a.Find):], true
	}
	return "", false
}

// nodeAliases are the config's aliases for the CSS tools' runner, which applies them to Sass's
// and Less's imports as Vite's resolvers do; a customResolver's are left out.
func (c *viteConfig) nodeAliases() []nodetool.Alias {
	if c == nil {
		return nil
	}
	var out []nodetool.Alias
	for _, a := range c.Alias {
		if !a.Custom {
			out = append(out, nodetool.Alias{Find: a.Find, Regex: a.Source, Flags: a.Flags, Replacement: a.Replacement})
		}
	}
	return out
}

// alias returns the import spec as the config's first alias that matches rewrites it.
func (c *viteConfig) alias(spec string) (string, bool) {
	if c == nil {
		return "", false
	}
	for _, a := range c.Alias {
		if to, ok := a.apply(spec); ok {
			return to, true
		}
	}
	return "", false
}

// aliases reports whether an alias of the config rewrites the import spec.
func (c *viteConfig) aliases(spec string) bool {
	if c == nil {
		return false
	}
	for _, a := range c.Alias {
		if _, ok := a.apply(spec); ok {
			return true
		}
	}
	return false
}
