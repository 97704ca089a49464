package pipeline

import (
	"bytes"

	"github.com/tdewolff/minify/v2"
	mhtml "github.com/tdewolff/minify/v2/html"
)

// minifyHTML minifies the markup only. No CSS or JS minifier is registered, so the code
// esbuild already minified passes through untouched, and no URL minifier is set, so no URL is
// rewritten.
func minifyHTML(page []byte) ([]byte, error) {
	m := minify.New()
	h := &mhtml.Minifier{KeepDocumentTags: true, KeepEndTags: true, KeepQuotes: false}
	var out bytes.Buffer
	if err := h.Minify(m, &out, bytes.NewReader(page), nil); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
