package pipeline

import (
	"strings"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
)

// imageSetURLs writes each string of an image-set() (or -webkit-image-set()) as a url():
// CSS Images 4 reads a string there as a URL (image-set("a.png" 1x, "a@2x.png" 2x)), and
// esbuild, which reads only url() tokens as URLs, would leave it to load at run time. Strings
// nested in another function (type("image/avif")) are not URLs and stay. The stylesheet is
// read by a CSS tokenizer, so that a comment or a string elsewhere that holds "image-set(" is
// not one.
func imageSetURLs(src string) string {
	if !strings.Contains(strings.ToLower(src), "image-set(") {
		return src
	}
	l := css.NewLexer(parse.NewInputString(src))
	var b strings.Builder
	depth := 0 // inside an image-set(): 1 at its own level
	for {
		tt, data := l.Next()
		if tt == css.ErrorToken {
			break
		}
		switch tt {
		case css.FunctionToken:
			if depth > 0 {
				depth++
			} else if name := strings.ToLower(string(data)); name == "image-set(" || name == "-webkit-image-set(" {
				depth = 1
			}
		case css.LeftParenthesisToken:
			if depth > 0 {
				depth++
			}
		case css.RightParenthesisToken:
			if depth > 0 {
				depth--
			}
		case css.StringToken:
			if depth == 1 {
				b.WriteString("url(")
				b.Write(data)
				b.WriteString(")")
				continue
			}
		}
		b.Write(data)
	}
	return b.String()
}
