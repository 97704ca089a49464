package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
)

// dedupeAssets inlines a large data: URL that a stylesheet uses more than once only once: a
// rule ":root,:host{--miniapp-asset-<hash>:url(…)}" defines it and each use becomes var().
// The stylesheet is read by tdewolff/parse's CSS tokenizer (CSS Syntax Level 3), whose tokens
// partition the text, so that a URL in a comment or a string is not one, and:
//   - the name is the SHA-256 of the URL, so that two stylesheets of a page (or one and a
//     shadow root's) that each define one can never take each other's image: the same name
//     holds the same URL;
//   - :host makes it reach a shadow tree when the stylesheet is adopted in a shadow root (CSS
//     imported with ?inline), where :root matches nothing; custom properties inherit from the
//     host into its tree, and in a document's stylesheet :host matches nothing;
//   - the rule goes after the @charset, @import, @namespace and @layer statements that must
//     come first (a rule before @import or @namespace invalidates them);
//   - only a use in a declaration of a style rule (nested in @media, @supports, @container,
//     @layer, @scope or @starting-style, or not) becomes var(): descriptors (@font-face,
//     @counter-style, @property, @page's margin boxes) do not take var();
//   - and only in a declaration valid at parse time as written (parsesAsWritten): var()
//     makes any declaration valid at parse time, and one the browser drops when parsed (so
//     that the declaration before it applies) would become invalid at computed-value time,
//     which makes the property unset. A declaration it cannot tell keeps its url() inline.
func dedupeAssets(src string) string {
	const minLen = 1024
	type use struct {
		start, end int
		url        string
	}
	var uses []use
	count := map[string]int{}
	// The declaration being read in a style rule's block: where it starts, its candidate uses,
	// how deep in functions, ( ) and [ ] it is (a ";" there does not end it: what follows is
	// no declaration of its own, and parsesAsWritten refuses such a value anyway).
	declStart, declUses, depth, inner := -1, []use(nil), 0, false
	endDecl := func(end int) {
		if len(declUses) > 0 && !inner && parsesAsWritten(src[declStart:end]) {
			for _, u := range declUses {
				uses = append(uses, u)
				count[u.url]++
			}
		}
		declStart, declUses, depth, inner = -1, nil, 0, false
	}
	head := 0 // where the definitions go: after the statements that must come first
	first := true
	// stack holds, for each open block, whether declarations in it are a style rule's.
	var stack []bool
	var prelude string // the at-rule keyword of the prelude being read ("" for a rule)
	inPrelude := false
	l := css.NewLexer(parse.NewInputString(src))
	off := 0
	for {
		tt, data := l.Next()
		if tt == css.ErrorToken {
			break
		}
		start := off
		off += len(data)
		switch tt {
		case css.WhitespaceToken, css.CommentToken, css.CDOToken, css.CDCToken:
			continue
		case css.AtKeywordToken:
			if len(stack) > 0 && stack[len(stack)-1] && declStart < 0 {
				declStart = start // an at-rule in the block: no declaration
			}
			if !inPrelude {
				inPrelude, prelude = true, strings.ToLower(string(data))
			}
			continue
		case css.SemicolonToken:
			if depth > 0 {
				inner = true
				continue
			}
			endDecl(start)
			if len(stack) == 0 && inPrelude && first {
				switch prelude {
				case "@charset", "@import", "@namespace", "@layer":
					head = off
				default:
					first = false
				}
			}
			inPrelude, prelude = false, ""
			continue
		case css.LeftBraceToken:
			// What was read in a style rule's block was a nested rule's prelude.
			declStart, declUses, depth, inner = -1, nil, 0, false
			style := true // a qualified rule: a style rule (or a nested one)
			if inPrelude && prelude != "" {
				style = false
				switch prelude {
				case "@media", "@supports", "@container", "@layer", "@scope", "@starting-style", "@document":
					// A group rule: declarations in it are its enclosing style rule's.
					style = len(stack) > 0 && stack[len(stack)-1]
				}
			}
			if len(stack) == 0 {
				first = false
			}
			stack = append(stack, style)
			inPrelude, prelude = false, ""
			continue
		case css.RightBraceToken:
			endDecl(start)
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			inPrelude, prelude = false, ""
			continue
		}
		if len(stack) == 0 && !inPrelude {
			first = false
			inPrelude = true // a qualified rule's prelude
		}
		if len(stack) > 0 && stack[len(stack)-1] && declStart < 0 {
			declStart = start
		}
		switch tt {
		case css.FunctionToken, css.LeftParenthesisToken, css.LeftBracketToken:
			depth++
		case css.RightParenthesisToken, css.RightBracketToken:
			depth = max(depth-1, 0)
		}
		if tt != css.URLToken || len(data) < minLen || len(stack) == 0 || !stack[len(stack)-1] {
			continue
		}
		inner := strings.Trim(strings.TrimSpace(string(data[len("url("):len(data)-1])), `"'`)
		if len(inner) < 5 || !strings.EqualFold(inner[:5], "data:") {
			continue
		}
		declUses = append(declUses, use{start, off, string(data)})
	}
	names := map[string]string{}
	var defs []string
	for _, u := range uses {
		if count[u.url] > 1 && names[u.url] == "" {
			sum := sha256.Sum256([]byte(u.url))
			names[u.url] = "--miniapp-asset-" + hex.EncodeToString(sum[:8])
			defs = append(defs, names[u.url]+":"+u.url)
		}
	}
	if len(defs) == 0 {
		return src
	}
	var b strings.Builder
	b.WriteString(src[:head])
	b.WriteString(":root,:host{" + strings.Join(defs, ";") + "}")
	last := head
	for _, u := range uses {
		if name := names[u.url]; name != "" {
			b.WriteString(src[last:u.start] + "var(" + name + ")")
			last = u.end
		}
	}
	b.WriteString(src[last:])
	return b.String()
}
