package sourcemap

import "testing"

// TestPageModuleScript: the map is of the page's first module script with text, its kind by
// the HTML Standard's rule as the offline check reads it (offline.KindOfScript): a type with
// a no-break space around "module" is a data block, which strings.TrimSpace took for one.
func TestPageModuleScript(t *testing.T) {
	const mapJSON = `{"version":3,"sources":["a.js"],"sourcesContent":["abc"],"names":[],"mappings":"AAAA"}`
	for _, r := range []struct {
		name, page string
		line, col  int
	}{
		{"module", "<script type=\"module\">abc</script>", 1, 23},
		{"module_upper", "<script type=\"MODULE\">abc</script>", 1, 23},
		{"after_data_block_no_break_space", "<script type=\"module\u00a0\">{}</script>\n<script type=\"module\">abc</script>", 2, 23},
		{"after_data_block_language", "<script language=\"vbscript\">x</script>\n<script type=\"module\">abc</script>", 2, 23},
	} {
		p := NewPage([]byte(r.page), []byte(mapJSON), "")
		if err := p.Err(); err != nil {
			t.Errorf("%s: %v", r.name, err)
			continue
		}
		pos, ok := p.Locate(r.line, r.col)
		if !ok || pos.File != "a.js" || pos.Line != 1 {
			t.Errorf("%s: Locate(%d, %d) = %v, %v; want a.js:1", r.name, r.line, r.col, pos, ok)
		}
	}
}
