package pipeline

import (
	"testing"

	"github.com/miniapp/bundle/markup"
)

// TestEscapeScript: only the "<" the HTML parser would act on changes, each written so that
// the code means what it did; and the page's tree then holds the script's whole text, ending
// at its own </script>.
func TestEscapeScript(t *testing.T) {
	for _, r := range []struct{ name, in, want string }{
		{"end_tag_in_string", `x="</script>"`, `x="\x3C/script>"`},
		{"end_tag_any_case", `x='</SCRIPT '`, `x='\x3C/SCRIPT '`},
		{"not_an_end_tag", `x="</scripts>";y="</script"`, `x="</scripts>";y="</script"`},
		{"comment_opener_alone", `x="<script>";y="<!--"`, `x="<script>";y="<!--"`},
		{"double_escaped_at_the_end", `x="<!--";y="<script>"`, `x="<!--";y="<script>"/*-->*/`},
		{"read_through", "x=String.raw`<!--<script>a</script>`", "x=String.raw`<!--<script>a</script>`"},
		{"string_raw", "x=String.raw`<!--<script>`", "x=String.raw`<!--<script>`/*-->*/"},
		{"line_comment_at_the_end", "x=1//<!--<script>", "x=1//<!--<script>/*-->*/"},
		{"comment_closed_first", `x="<!-- -->";y="<script>"`, `x="<!-- -->";y="<script>"`},
		{"comment_closed_at_once", `x="<!-->";y="</script>"`, `x="<!-->";y="\x3C/script>"`},
		{"end_tag_in_escaped", `x="<!--</script>"`, `x="<!--\x3C/script>"`},
		{"template", "x=`${a}</script>${b}`", "x=`${a}${\"\\x3C\"}/script>${b}`"},
		{"regexp", `x=/<\/script>|<\/script /.test(y)||/a</script>/`, `x=/<\/script>|<\/script /.test(y)||/a\x3C/script>/`},
		{"division_then_string", `x=a/2+"</script>"`, `x=a/2+"\x3C/script>"`},
		{"less_than", `if(a</script/.test(b))c()`, `if(a< /script/.test(b))c()`},
		{"comment", "/* </script> */x=1", `/* \x3C/script> */x=1`},
		{"none", `a<b&&c</scrip`, `a<b&&c</scrip`},
	} {
		got := escapeScript(r.in)
		if got != r.want {
			t.Errorf("%s: escapeScript(%s)\n = %s\nwant %s", r.name, r.in, got, r.want)
		}
		page := "<!doctype html><script>" + got + "</script><p>after</p>"
		d := markup.Parse([]byte(page), markup.Options{})
		if texts := scriptTexts(d, nil, nil); len(texts) != 1 || texts[0].text != got {
			t.Errorf("%s: the page's script holds %v, want %q", r.name, texts, got)
		}
	}
}
