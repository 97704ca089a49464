package pipeline

import (
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// TestMarkupSinks reads markup a script gives the HTML parser, as the fragment parsing
// algorithm reads it: what the bundle's policy blocks is found (a handler, a javascript: URL,
// a script where the sink runs it), and nothing else.
func TestMarkupSinks(t *testing.T) {
	for _, r := range []struct{ name, src, want string }{
		{"innerHTML handler", `el.innerHTML = '<img src="x.png" onerror="go()">';`, `inline event handler onerror="go()"`},
		{"innerHTML +=", `el.innerHTML += '<b onclick="go()">b</b>';`, `inline event handler onclick`},
		{"outerHTML javascript: URL", "el.outerHTML = `<a href=\"java\tscript:go()\">a</a>`;", `a javascript: URL (href="java\tscript:go()")`},
		{"innerHTML script never runs", `el.innerHTML = "<script>go()<\/script>";`, ""},
		{"fragment script runs", `const f = document.createRange().createContextualFragment("<b>b</b><script>go()<\/script>");`, "a <script>, which runs"},
		{"fragment SVG script runs", `const f = range.createContextualFragment("<svg><script>go()<\/script></svg>");`, "a <script>, which runs"},
		{"document.write script", `document.write("<scr" + "ipt>go()</scr" + "ipt>");`, "a <script>, which runs"},
		{"insertAdjacentHTML handler, put together", `const on = "onload"; el.insertAdjacentHTML("beforeend", "<svg " + on + "=go()></svg>");`, "inline event handler onload"},
		{"a template's content is inert", `const f = range.createContextualFragment("<template><script>go()<\/script><img onerror=go()></template>");`, ""},
		{"an attribute's text is no handler", `el.innerHTML = '<p title="onclick=go()">p</p>';`, ""},
		{"a script's text in a textarea", `document.write("<textarea><script>go()<\/script></textarea>");`, ""},
		{"markup the run makes", `el.innerHTML = userText;`, ""},
		{"plain markup", `el.innerHTML = "<b>bold</b>";`, ""},
		// Found attacking (attack23b): a frame's srcdoc is a document whose scripts run.
		{"innerHTML frame's srcdoc script", `el.innerHTML = '<iframe srcdoc="<script>go()<\/script>"></iframe>';`, "an <iframe srcdoc> whose document holds a <script>"},
		{"a nested srcdoc's handler", `el.innerHTML = '<iframe srcdoc="<iframe srcdoc=\'<img onerror=go()>\'></iframe>"></iframe>';`, "inline event handler onerror"},
		{"srcdoc property script", `frame.srcdoc = "<p>p</p><script>go()<\/script>";`, "a <script>, which runs"},
		{"setAttribute srcdoc", `frame.setAttribute("SRCDOC", "<script>go()<\/script>");`, "a <script>, which runs"},
		{"plain srcdoc", `frame.srcdoc = "<p>framed</p>"; frame.setAttribute("title", "<script>go()<\/script>");`, ""},
		{"setAttribute handler", `el.setAttribute("onClick", "go()");`, `inline event handler onClick="go()"`},
		{"setAttribute javascript: URL, put together", `const s = "java" + "script:"; a.setAttribute("href", s + "go()");`, `a javascript: URL (href="javascript:go()")`},
		{"href property javascript: URL", `link.href = "JavaScript:go()";`, `a javascript: URL (href="JavaScript:go()")`},
		{"location.href javascript: URL", `location.href = "javascript:go()";`, `a javascript: URL`},
		{"plain attributes", `el.setAttribute("title", "onclick"); link.href = "#top"; img.src = "data:,"; el.setAttribute(name, "go()");`, ""},
		{"a frame's document.write", `frame.contentDocument.write("<p>p</p><script>go()<\/script>");`, "the markup given to contentDocument.write holds a <script>"},
		{"setHTMLUnsafe handler", `el.setHTMLUnsafe("<div onmouseover=go()></div>");`, "inline event handler onmouseover"},
	} {
		t.Run(r.name, func(t *testing.T) {
			s, err := readScript("main.js", r.src, api.LoaderJS)
			if err != nil || s == nil {
				t.Fatalf("read: %v", err)
			}
			rw := &rewrite{s: s, file: "main.js"}
			for i := range s.sig {
				rw.checkMarkup(i)
				rw.checkAttr(i)
			}
			var got []string
			for _, e := range rw.errs {
				got = append(got, e.Text)
			}
			switch {
			case r.want == "" && len(got) > 0:
				t.Errorf("%s: got %q, want nothing", r.src, got)
			case r.want != "" && (len(got) != 1 || !strings.Contains(got[0], r.want)):
				t.Errorf("%s: got %q, want one naming %q", r.src, got, r.want)
			}
		})
	}
}
