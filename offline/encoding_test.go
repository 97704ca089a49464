package offline

import (
	"strings"
	"testing"
)

// TestPrescan checks the HTML Standard's prescan of a byte stream (§13.2.3.2) on the cases
// its steps name: comments skipped ("<!-->" ends one), a charset attribute, a content-type
// pragma with its content, a content without the pragma, the first of duplicate attributes,
// tags and their attributes passed over, and every declaration in the input.
func TestPrescan(t *testing.T) {
	rows := []struct{ src, want string }{
		{`<meta charset="shift_jis">`, "shift_jis"},
		{`<META CHARSET=GBK>`, "gbk"},
		{`<meta http-equiv="Content-Type" content="text/html; charset=euc-kr">`, "euc-kr"},
		{`<meta content="text/html; charset=euc-kr" http-equiv="content-type">`, "euc-kr"},
		{`<meta content="text/html; charset=euc-kr">`, ""},
		{`<meta charset="big5" charset="gbk">`, "big5"},
		{`<!-- <meta charset="gbk"> -->`, ""},
		{`<!--><meta charset="gbk">`, "gbk"},
		{`<p title="<meta charset=gbk>"><meta charset=big5>`, "big5"},
		{`<script>"<meta charset=gbk>"</script>`, "gbk"}, // the prescan knows no raw text
		{`<meta/charset=gbk>`, "gbk"},
		{`<metacharset=gbk>`, ""},
		{`<meta charset=gbk><p><meta charset=big5>`, "gbk big5"},
		{`<meta http-equiv=content-type content='charset="koi8-r"'>`, "koi8-r"},
		{`<meta http-equiv=content-type content="charset">`, ""},
	}
	for _, r := range rows {
		var got []string
		for _, d := range prescan([]byte(r.src)) {
			got = append(got, d.label)
		}
		if strings.Join(got, " ") != r.want {
			t.Errorf("prescan(%q) = %q, want %q", r.src, got, r.want)
		}
	}
}

// TestEncoding: the encoding a page may be read in besides UTF-8, and where it is said.
func TestEncoding(t *testing.T) {
	rows := []struct {
		src, want string
		off       int
	}{
		{`<!doctype html><meta charset="utf-8"><p>x`, "", 0},
		{`<p>x<meta charset="shift_jis">`, "shift_jis", 4},
		{"\xff\xfe<\x00p\x00>\x00", "UTF-16", 0},
		{"\xef\xbb\xbf<meta charset=gbk>", "", 0},
		{"<p>\x1b$B<!--\x1b(B", "iso-2022-jp", 3},
		{"<meta charset=utf-8><p>\x1b$B", "", 0},
		{`<meta charset="utf-16le">`, "", 0},
	}
	for _, r := range rows {
		name, off := Encoding([]byte(r.src))
		if name != r.want || off != r.off {
			t.Errorf("Encoding(%q) = %q at %d, want %q at %d", r.src, name, off, r.want, r.off)
		}
	}
}
