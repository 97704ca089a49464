package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportedSinks builds apps whose module gives markup, an attribute or a URL to a
// function it imports from another of the app's modules, whose code gives it a sink: read by
// the import graph, each an error at the argument where the value holds what the policy
// blocks, and nothing where it does not (p23: each built with exit 0 before).
func TestImportedSinks(t *testing.T) {
	for _, r := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"a named export's parameter", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import { put } from "./dom.js"; put(document.body, '<img src="x" onerror="go()">');`,
		}, `main.js:1:52: error: the value given to put(…), imported from dom.js, whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"a const's arrow through the module's own function, by extension", map[string]string{
			"dom.ts":  `const setHTML = (el: Element, m: string) => { el.innerHTML = m; }; export const card = (title: string) => setHTML(document.body, "<h2>" + title + "</h2>");`,
			"main.js": `import { card } from "./dom"; card("<img src=x onerror=go()>");`,
		}, `the value given to card(…), imported from dom.ts, whose code gives its parameter title to innerHTML, holds the inline event handler onerror="go()"`},
		{"an export list's alias, by a namespace", map[string]string{
			"dom.js":  `function w(m) { document.write(m); } export { w as write };`,
			"main.js": `import * as dom from "./dom.js"; dom.write("<script>go()<\/script>");`,
		}, `the value given to dom.write(…), imported from dom.js, whose code gives its parameter m to document.write, holds a <script>`},
		{"a default export's navigation", map[string]string{
			"nav.js":  `export default function (to) { location.assign(to); }`,
			"main.js": `import go from "./nav.js"; go("#top"); go("javascript:run()");`,
		}, `the value given to go(…), imported from nav.js, whose code gives its parameter to to location.assign(…), holds a javascript: URL ("javascript:run()")`},
		{"an attribute's name", map[string]string{
			"dom.js":  `export function set(el, name, v) { el.setAttribute(name, v); }`,
			"main.js": `import { set } from "./dom.js"; set(document.body, "onclick", "go()");`,
		}, `the value given to set(…), imported from dom.js, whose code gives its parameter name to setAttribute, holds the inline event handler onclick="go()"`},
		{"plain markup, text, data, the module's own", map[string]string{
			"dom.js": `export function put(el, m) { el.innerHTML = m; } export function text(el, m) { el.textContent = m; } export function own(m) { document.body.innerHTML = m; } own("<b>b</b>");`,
			"main.js": `import { put, text, own } from "./dom.js"; put(document.body, "<b>bold</b>"); text(document.body, "<img src=x onerror=go()>"); put(document.body, location.hash); ` +
				`own("<i>i</i>"); { const put = (el, m) => {}; put(document.body, "<img src=x onerror=go()>"); }`,
		}, ""},
		// Found attacking (u23): a name re-exported through a third module, an exported
		// object's method, each built with exit 0.
		{"a name re-exported through a third module", map[string]string{
			"dom.js":   `export function put(el, m) { el.innerHTML = m; }`,
			"index.js": `export { put } from "./dom.js";`,
			"main.js":  `import { put } from "./index.js"; put(document.body, '<img src="x" onerror="go()">');`,
		}, `main.js:1:54: error: the value given to put(…), imported from dom.js, whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"export * from, by a namespace", map[string]string{
			"dom.js":   `export function put(el, m) { el.innerHTML = m; }`,
			"index.js": `export * from "./other.js"; export * from "./dom.js";`,
			"other.js": `export const other = 1;`,
			"main.js":  `import * as ui from "./index.js"; ui.put(document.body, "<img src=x onerror=go()>");`,
		}, `the value given to ui.put(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"an import exported again under another name", map[string]string{
			"dom.js":   `export default function (m) { document.write(m); }`,
			"index.js": `import w from "./dom.js"; export { w as write };`,
			"main.js":  `import { write } from "./index.js"; write("<script>go()<\/script>");`,
		}, `the value given to write(…), imported from dom.js, whose code gives its parameter m to document.write, holds a <script>`},
		{"a default re-exported by name", map[string]string{
			"nav.js":   `export default (to) => location.assign(to);`,
			"index.js": `export { default as go } from "./nav.js";`,
			"main.js":  `import { go } from "./index.js"; go("javascript:run()");`,
		}, `the value given to go(…), imported from nav.js, whose code gives its parameter to to location.assign(…), holds a javascript: URL`},
		{"export * as, a namespace re-exported", map[string]string{
			"dom.js":   `export function put(el, m) { el.innerHTML = m; }`,
			"index.js": `export * as ui from "./dom.js";`,
			"main.js":  `import { ui } from "./index.js"; ui.put(document.body, "<img src=x onerror=go()>");`,
		}, `the value given to ui.put(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"an exported object's method", map[string]string{
			"dom.js":  `export const dom = { put(el, m) { el.innerHTML = m; }, text(el, m) { el.textContent = m; } };`,
			"main.js": `import { dom } from "./dom.js"; dom.text(document.body, "<img src=x onerror=go()>"); dom.put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:109: error: the value given to dom.put(…), imported from dom.js, whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"a default object's arrow, by a namespace's member", map[string]string{
			"ui.js":   `export default { write: (m) => document.write(m) }; export const views = { show: function (el, m) { el.insertAdjacentHTML("beforeend", m); } };`,
			"main.js": `import * as ui from "./ui.js"; ui.views.show(document.body, '<a href="javascript:go()">a</a>');`,
		}, `the value given to ui.views.show(…), imported from ui.js, whose code gives its parameter m to insertAdjacentHTML, holds a javascript: URL`},
		{"re-exported and exported objects, plain markup", map[string]string{
			"dom.js":   `export const dom = { put(el, m) { el.innerHTML = m; } }; export function put(el, m) { el.innerHTML = m; }`,
			"index.js": `export * from "./dom.js";`,
			"main.js":  `import { dom, put } from "./index.js"; dom.put(document.body, "<b>b</b>"); put(document.body, "<i>i</i>");`,
		}, ""},
		{"arguments spread from an array literal, a const bound to the import", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import { put } from "./dom.js"; const p = put; p(document.body, "<b>b</b>"); put(...[document.body, "<img src=x onerror=go()>"]);`,
		}, `main.js:1:101: error: the value given to put(…), imported from dom.js`},
		{"a const bound to the import", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const p = dom.put; p(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:70: error: the value given to p(…), imported from dom.js`},
		// Markup given to code the build cannot read: a package's function, a function a
		// page's global holds that no script gives where it can be read (u23).
		{"a package's function", map[string]string{
			"node_modules/lib/package.json": `{"name": "lib", "version": "1.0.0", "type": "module", "main": "index.js"}`,
			"node_modules/lib/index.js":     `export function render(el, m) { el.innerHTML = m; }`,
			"main.js":                       `import * as lib from "lib"; lib.render(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:55: error: the markup given to lib's lib.render(…) holds the inline event handler onerror="go()"`},
		{"window.put, called by its name and on window", map[string]string{
			"main.js": `window.put = function (m) { document.body.innerHTML = m; }; put("<b>b</b>"); window.put('<img src="x" onerror="go()">');`,
		}, `main.js:1:89: error: the value given to window.put(…), assigned in main.js, whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"window[\"put\"], a key in brackets", map[string]string{
			"main.js": `window["put"] = (m) => { document.body.innerHTML = m; }; put("<img src=x onerror=go()>");`,
		}, `main.js:1:62: error: the value given to put(…), assigned in main.js`},
		{"window.put in one classic script, put in another", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<script src=\"./a.js\"></script>\n<script src=\"./b.js\"></script>\n</body>\n</html>\n",
			"a.js":       `window.put = (m) => { document.body.innerHTML = m; };`,
			"b.js":       `put("<img src=x onerror=go()>");`,
		}, `b.js:1:5: error: the value given to put(…), assigned in a.js, whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"a module's call of a global a classic script assigns", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<script src=\"./a.js\"></script>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"a.js":       `window.put = (m) => { document.body.innerHTML = m; }; var App = { text(m) { document.body.textContent = m; } };`,
			"main.js":    `App.text("<img src=x onerror=go()>"); put("<b>b</b>"); put("<img src=x onerror=go()>");`,
		}, `main.js:1:60: error: the value given to put(…), assigned in a.js, whose code gives its parameter m to innerHTML`},
		{"a global object's method another classic script assigns", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<script src=\"./a.js\"></script>\n<script src=\"./b.js\"></script>\n</body>\n</html>\n",
			"a.js":       `var App = {}; App.render = function (el, m) { el.innerHTML = m; }; App.text = function (m) { document.body.textContent = m; };`,
			"b.js":       `App.text("<img src=x onerror=go()>"); App.render(document.body, "<b>b</b>"); App.render(document.body, "<img src=x onerror=go()>");`,
		}, `b.js:1:104: error: the value given to App.render(…), assigned in a.js, whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"jQuery's $.fn, a plugin another classic script assigns", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<script src=\"./a.js\"></script>\n<script src=\"./b.js\"></script>\n</body>\n</html>\n",
			"a.js":       `$.fn.put = function (m) { this[0].innerHTML = m; return this; };`,
			"b.js":       `$("#x").put("<b>b</b>"); $("#x").put("<img src=x onerror=go()>");`,
		}, `b.js:1:38: error: the markup given to $(…).put(…) holds the inline event handler onerror="go()"`},
		{"a callback a package calls", map[string]string{
			"node_modules/lib/package.json": `{"name": "lib", "version": "1.0.0", "type": "module", "main": "index.js"}`,
			"node_modules/lib/index.js":     `export function on(name, f) { f((m) => { document.body.innerHTML = m; }); }`,
			"main.js":                       `import { on } from "lib"; on("ready", (render) => render("<img src=x onerror=go()>"));`,
		}, `main.js:1:58: error: the markup given to render(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function render is`},
		{"an exported function's callback", map[string]string{
			"main.js": `export function each(cb) { cb('<a href="javascript:go()">a</a>'); }`,
		}, `main.js:1:31: error: the markup given to cb(…) holds a javascript: URL`},
		{"a function given to the app's own function, written there", map[string]string{
			"main.js": `function each(cb) { cb("<img src=x onerror=go()>"); } each((m) => { document.body.innerHTML = m; });`,
		}, `main.js:1:24: error: the value given to cb(…), the function each(…) is given, whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"a callback the app's own calls give, plain", map[string]string{
			"main.js": `function each(cb) { cb("<img src=x onerror=go()>"); cb("<b>b</b>"); } function show(m) { document.body.textContent = m; } each((m) => { document.body.textContent = m; }); each(show); each(function (m) { console.log(m); });`,
		}, ""},
		{"an object a package's function made", map[string]string{
			"node_modules/lib/package.json": `{"name": "lib", "version": "1.0.0", "type": "module", "main": "index.js"}`,
			"node_modules/lib/index.js":     `export function create(el) { return { set(m) { el.innerHTML = m; } }; }`,
			"main.js":                       `import { create } from "lib"; const editor = create(document.body); editor.set("<img src=x onerror=go()>");`,
		}, `main.js:1:80: error: the markup given to lib's editor.set(…) holds the inline event handler onerror="go()"`},
		{"a class's static method, exported", map[string]string{
			"dom.js":  `export class Dom { static put(el, m) { el.innerHTML = m; } }`,
			"main.js": `import { Dom } from "./dom.js"; Dom.put(document.body, "<img src=x onerror=go()>");`,
		}, `the value given to Dom.put(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"an export the build cannot read", map[string]string{
			"dom.js":  `function make() { return (el, m) => { el.innerHTML = m; }; } export const put = make();`,
			"main.js": `import { put } from "./dom.js"; put(document.body, "<i>i</i>"); put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:84: error: the markup given to put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read the function dom.js exports as put`},
		// Found attacking (g23): a free name no script of the page gives, not the platform's
		// (its global object's names, as Chromium has them), read as the browser's and its
		// call as data; and a function a dynamic import gives.
		{"a free name no script gives, jQuery's $ in a module", map[string]string{
			"main.js": `$("#x").html("<b>b</b>"); $("#x").html('<img src="x" onerror="go()">');`,
		}, `main.js:1:40: error: the markup given to $(…).html(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: no script of the page gives $`},
		{"$.fn's method in a classic script, no script gives $", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<script src=\"./b.js\"></script>\n</body>\n</html>\n",
			"b.js":       `$.fn.put('<a href="javascript:go()">a</a>');`,
		}, `b.js:1:10: error: the markup given to $.fn.put(…) holds a javascript: URL`},
		{"a global set where the build cannot see it", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<script src=\"./a.js\"></script>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"a.js":       `Object.assign(window, { lib: { put(el, m) { el.innerHTML = m; } } });`,
			"main.js":    `lib.put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:24: error: the markup given to lib.put(…) holds the inline event handler onerror="go()"`},
		{"a global another module gives", map[string]string{
			"a.js":    `window.lib = { put(el, m) { el.innerHTML = m; }, text(el, m) { el.textContent = m; } };`,
			"main.js": `import "./a.js"; lib.text(document.body, "<img src=x onerror=go()>"); lib.put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:94: error: the value given to lib.put(…), assigned in a.js, whose code gives its parameter m to innerHTML`},
		{"an element's id, a global of the page", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<p id=\"out\"></p>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"main.js":    `out.append("<img src=x onerror=go()>"); out.setAttribute("title", "<img src=x onerror=go()>");`,
		}, ""},
		// Found (f25): the Window's named properties (HTML § 7.2.3.5) are the name attribute of
		// each embed, form, img and object, and each child navigable's (an iframe's) name, as
		// well as the ids, of the elements in the document's tree: a call of one was refused as
		// no script's; and an id or name inside a template, or an input's or an anchor's name,
		// is none.
		{"an element's name, a global of the page", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<form name=\"f\"></form><img name=\"pic\" alt=\"\"><iframe name=\"frame\"></iframe><embed name=\"emb\"><object name=\"obj\"></object>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"main.js": `f.setAttribute("title", "<img src=x onerror=go()>"); pic.setAttribute("title", "<img src=x onerror=go()>"); frame.postMessage("<img src=x onerror=go()>", "*"); ` +
				`emb.setAttribute("title", "<img src=x onerror=go()>"); obj.setAttribute("title", "<img src=x onerror=go()>");`,
		}, ""},
		// Found attacking (af25): a member no element has, which a script gives the element
		// where the build cannot read it, and a frame's window's member but the platform's
		// (what the frame's document gives), each built with exit 0.
		{"a named element's member a script gives it", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<form name=\"lib\"></form>\n<script>document.forms.lib.put = function (m) { this.innerHTML = m; };</script>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"main.js":    `lib.put("<img src=x onerror=go()>");`,
		}, `main.js:1:9: error: the markup given to lib.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: lib is the page's <form name="lib"> (the Window's named property), and Chromium's elements have no member put: a script gives it where the build cannot read which function it is`},
		{"a frame's window's members but the platform's", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<iframe name=\"child\" srcdoc=\"<script>function put(m) { document.body.innerHTML = m; }</script>\"></iframe>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"main.js":    `child.postMessage("<img src=x onerror=go()>", "*"); child.document.write("<img src=x onerror=go()>");`,
		}, `main.js:1:74: error: the markup given to child.document.write(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: child is the window of the page's <iframe name="child"> (the Window's named property), whose members but the platform's are what the frame's document gives`},
		{"an iframe's window and document by its id", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<iframe id=\"child\" srcdoc=\"<script>function put(m) { document.body.innerHTML = m; }</script>\"></iframe>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"main.js":    `child.contentWindow.postMessage("<b>b</b>", "*"); child.contentDocument.write("<img src=x onerror=go()>"); child.contentWindow.put("<img src=x onerror=go()>");`,
		}, `main.js:1:79: error: the markup given to child.contentDocument.write(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: child.contentDocument is the document of the page's <iframe id="child">'s frame`},
		{"a frame's window's function", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<iframe name=\"child\" srcdoc=\"<script>function put(m) { document.body.innerHTML = m; }</script>\"></iframe>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"main.js":    `window.child.put("<img src=x onerror=go()>");`,
		}, `main.js:1:18: error: the markup given to window.child.put(…) holds the inline event handler onerror="go()"`},
		// Found (f26): a form's named controls (f.email for <input name="email"> in <form
		// name="f">, f.elements.email) and a same-origin frame's platform paths
		// (child.document.body.append(…)) were refused as members a script gives unseen: the
		// form's named getter reads its listed elements and images, and the frame's document
		// and body are the platform's, as the page's are; a member no element has, a control
		// another form owns (form="g") and document.write on the frame's document still are.
		{"a form's named controls, a frame's platform paths", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<form name=\"f\"><input name=\"email\"><select id=\"size\"></select><img name=\"pic\" alt=\"\"></form><iframe name=\"child\"></iframe>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"main.js": `f.email.setAttribute("title", "<img src=x onerror=go()>"); f.elements.size.setAttribute("title", "<img src=x onerror=go()>"); f.pic.setAttribute("title", "<img src=x onerror=go()>"); ` +
				`document.forms.f.elements.email.setAttribute("title", "<img src=x onerror=go()>"); child.document.body.append("<img src=x onerror=go()>"); child.window.postMessage("<img src=x onerror=go()>", "*");`,
		}, ""},
		{"a form's control's member a script gives it", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<form name=\"f\"><input name=\"email\"></form>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"main.js":    `f.elements.email.put("<img src=x onerror=go()>");`,
		}, `main.js:1:22: error: the markup given to f.elements.email.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: f.elements.email is the page's <input name="email"> (the form's named property), and Chromium's elements have no member put`},
		{"a control another form owns", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<form name=\"f\"><input name=\"email\" form=\"g\"></form><form id=\"g\"></form>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"main.js":    `f.email.setAttribute("title", "<img src=x onerror=go()>");`,
		}, `main.js:1:31: error: the markup given to f.email.setAttribute(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: f is the page's <form name="f"> (the Window's named property), and Chromium's elements have no member email`},
		{"a frame's document's member but the platform's", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<iframe name=\"child\"></iframe>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"main.js":    `child.document.body.put("<img src=x onerror=go()>");`,
		}, `main.js:1:25: error: the markup given to child.document.body.put(…) holds the inline event handler onerror="go()"`},
		{"an input's name is no global", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<form><input name=\"q\"></form>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"main.js":    `q.setAttribute("title", "<img src=x onerror=go()>");`,
		}, `main.js:1:25: error: the markup given to q.setAttribute(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: no script of the page gives q`},
		{"an anchor's name is no global", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<a name=\"anchor\"></a>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"main.js":    `anchor.setAttribute("title", "<img src=x onerror=go()>");`,
		}, `main.js:1:30: error: the markup given to anchor.setAttribute(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: no script of the page gives anchor`},
		{"a template's id and name are no globals", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<template><p id=\"tip\"></p><form name=\"tf\"></form></template>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"main.js":    `tip.setAttribute("title", "<img src=x onerror=go()>"); tf.setAttribute("title", "<img src=x onerror=go()>");`,
		}, `main.js:1:27: error: the markup given to tip.setAttribute(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: no script of the page gives tip`},
		// Found (f25): a name only another browser has (Safari's webkit, of a WKWebView's
		// message handlers; Firefox's) is no global of Chromium's, whose table the build
		// reads: the refusal says so, and where to look; a call behind a feature test of the
		// name (typeof, in, the global's property) runs only where the browser has it, the
		// platform's there, and builds.
		{"another browser's global", map[string]string{
			"main.js": `webkit.messageHandlers.host.postMessage("<img src=x onerror=go()>");`,
		}, `main.js:1:41: error: the markup given to webkit.messageHandlers.host.postMessage(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: no script of the page gives webkit, and Chromium has no global webkit (the build knows the platform's globals as Chromium has them, and which browser the host runs is unknown): another browser's (Safari's, Firefox's), or given by what the build cannot see (another frame, an extension, Object.assign(window, …))`},
		{"another browser's global, feature-tested", map[string]string{
			"main.js": `if (typeof webkit !== "undefined") webkit.messageHandlers.host.postMessage("<img src=x onerror=go()>"); ` +
				`if ("webkit" in window) { webkit.messageHandlers.host.postMessage("<img src=x onerror=go()>"); } ` +
				`window.webkit && webkit.messageHandlers.host.postMessage("<img src=x onerror=go()>"); ` +
				`"undefined" != typeof InstallTrigger ? InstallTrigger.install("<img src=x onerror=go()>") : 0; window.webkit?.messageHandlers.host.postMessage("<img src=x onerror=go()>");`,
		}, ""},
		{"a feature test of a name a script may give unseen", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<script src=\"./a.js\"></script>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"a.js":       `Object.assign(window, { lib: { put(el, m) { el.innerHTML = m; } } });`,
			"main.js":    `if (typeof lib !== "undefined") lib.put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:56: error: the markup given to lib.put(…) holds the inline event handler onerror="go()"`},
		{"a feature test of a name a module may give unseen", map[string]string{
			"a.js":    `const name = "lib"; window[name] = { put(el, m) { el.innerHTML = m; } };`,
			"main.js": `import "./a.js"; if ("lib" in window) lib.put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:62: error: the markup given to lib.put(…) holds the inline event handler onerror="go()"`},
		// Found attacking (af25): an element a script of the page makes and names gives the
		// name the feature test finds (the Window's named properties), which built with exit 0.
		{"a feature test of a name a script gives an element", map[string]string{
			"main.js": `const d = document.createElement("div"); d.id = "lib"; d.put = (m) => { d.innerHTML = m; }; document.body.append(d); if (typeof lib !== "undefined") lib.put("<img src=x onerror=go()>");`,
		}, `main.js:1:158: error: the markup given to lib.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the page's feature test of lib says nothing of the browser, as a script of the page may give lib where the build does not read it`},
		{"a feature test of a name another script may give a frame", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<script src=\"./a.js\"></script>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"a.js":       `const f = document.createElement("iframe"); f.setAttribute("name", location.hash.slice(1)); document.body.append(f);`,
			"main.js":    `if ("webkit" in window) webkit.messageHandlers.host.postMessage("<img src=x onerror=go()>");`,
		}, `main.js:1:65: error: the markup given to webkit.messageHandlers.host.postMessage(…) holds the inline event handler onerror="go()"`},
		// Found (f26): a name written to an object the build reads as no element that names
		// the Window's property (a literal, an instance of a class that extends nothing or of
		// the platform's Map, a div) turned every feature test of the page off; a name
		// written to what may be a form (created so, or a parameter) still does.
		{"a feature test beside names written to objects", map[string]string{
			"main.js": `const user = {}; user.name = location.hash; class Model { constructor() { this.name = location.hash; } } new Model(); const d = document.createElement("div"); d.name = location.hash; const m = new Map(); m.name = location.hash; ` +
				`if (typeof webkit !== "undefined") webkit.messageHandlers.host.postMessage("<img src=x onerror=go()>");`,
		}, ""},
		{"a feature test beside a name written to a form", map[string]string{
			"main.js": `const f = document.createElement("form"); f.name = location.hash; document.body.append(f); if (typeof webkit !== "undefined") webkit.messageHandlers.host.postMessage("<img src=x onerror=go()>");`,
		}, `main.js:1:167: error: the markup given to webkit.messageHandlers.host.postMessage(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the page's feature test of webkit says nothing of the browser`},
		{"a feature test beside a name written to a parameter", map[string]string{
			"main.js": `function rename(el, v) { el.name = v; } rename(document.forms[0], location.hash); if (typeof webkit !== "undefined") webkit.messageHandlers.host.postMessage("<img src=x onerror=go()>");`,
		}, `the page's feature test of webkit says nothing of the browser`},
		{"a feature test beside an element named otherwise", map[string]string{
			"main.js": `const d = document.createElement("div"); d.id = "box"; d.setAttribute("name", "box"); d.setAttribute("title", "webkit"); document.body.append(d); if (typeof webkit !== "undefined") webkit.messageHandlers.host.postMessage("<img src=x onerror=go()>");`,
		}, ""},
		// Found attacking (af25): an element the page's markup sink makes gives the name
		// (insertAdjacentHTML of <div id="lib">) and a function a script puts on it unseen; the
		// feature test finds it, and the call built with exit 0 (markupNames).
		{"a feature test of a name markup a script parses gives", map[string]string{
			"main.js": `document.body.insertAdjacentHTML("beforeend", '<div id="lib"></div>'); document.getElementById("lib").put = (m) => { document.body.innerHTML = m; }; if (typeof lib !== "undefined") lib.put("<img src=x onerror=go()>");`,
		}, `main.js:1:190: error: the markup given to lib.put(…) holds the inline event handler onerror="go()"`},
		// Found attacking (af25): a function's arguments object is no global, but a call of
		// its member was refused as one of a name Chromium has not, with the fix to
		// feature-test it. The message says what arguments is, and its fix builds.
		{"a function's arguments object", map[string]string{
			"main.js": `function run() { arguments[0].put("<img src=x onerror=go()>"); } run({ put() {} });`,
		}, `main.js:1:35: error: the markup given to arguments[…].put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (arguments is the arguments object of run`},
		{"a function's parameter, as the arguments message says", map[string]string{
			"main.js": `function run(x) { x.put("<img src=x onerror=go()>"); } run({ put() {} });`,
		}, ""},
		{"a feature test of another name, or its else", map[string]string{
			"main.js": `if (typeof webkit === "undefined") {} else { webkit.messageHandlers.host.postMessage("<b>b</b>"); } if (typeof safari !== "undefined") webkit.messageHandlers.host.postMessage("<img src=x onerror=go()>");`,
		}, `main.js:1:176: error: the markup given to webkit.messageHandlers.host.postMessage(…) holds the inline event handler onerror="go()"`},
		{"the platform's functions, free names given data", map[string]string{
			"main.js": `console.log("<img src=x onerror=go()>"); alert("<img src=x onerror=go()>"); document.body.append("<img src=x onerror=go()>"); structuredClone("<img src=x onerror=go()>"); ` +
				`window.console.info("<img src=x onerror=go()>"); $("#x").html(location.hash); $("#x").html("<b>b</b>"); lib.put(document.body, "<i>i</i>");`,
		}, ""},
		{"a dynamic import destructured", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; } export function text(el, m) { el.textContent = m; }`,
			"main.js": `const { put, text } = await import("./dom.js"); text(document.body, "<img src=x onerror=go()>"); put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:117: error: the value given to put(…), imported from dom.js, whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"a dynamic import's namespace", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `const m = await import("./dom.js"); m.put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:58: error: the value given to m.put(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"import().then's destructured parameter", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import("./dom.js").then(({ put }) => put(document.body, "<img src=x onerror=go()>"));`,
		}, `main.js:1:57: error: the value given to put(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"import().then's namespace parameter", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import("./dom.js").then(function (m) { m.put(document.body, "<img src=x onerror=go()>"); });`,
		}, `main.js:1:61: error: the value given to m.put(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"import().then given a function declared elsewhere", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `function setup(m) { m.put(document.body, "<img src=x onerror=go()>"); } const show = ({ put }) => put(document.body, "<b>b</b>"); import("./dom.js").then(setup); import("./dom.js").then(show);`,
		}, `main.js:1:42: error: the value given to m.put(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"a dynamic import of a specifier the build cannot read", map[string]string{
			"views/dom.js": `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": "const name = location.hash.slice(1); const m = await import(`./views/${name}.js`); m.put(document.body, \"<img src=x onerror=go()>\"); " +
				`import("./views/" + name + ".js").then(({ put }) => put(document.body, "<b>b</b>"));`,
		}, `main.js:1:105: error: the markup given to m.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which module import(…) loads`},
		{"a package's module imported dynamically", map[string]string{
			"node_modules/lib/package.json": `{"name": "lib", "version": "1.0.0", "type": "module", "main": "index.js"}`,
			"node_modules/lib/index.js":     `export function render(el, m) { el.innerHTML = m; } export function text(el, m) { el.textContent = m; }`,
			"main.js":                       `const { render, text } = await import("lib"); text(document.body, "<b>b</b>"); render(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:102: error: the markup given to lib's render(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build does not read what the package's code does with it`},
		{"dynamic imports given plain markup, text", map[string]string{
			"dom.js": `export function put(el, m) { el.innerHTML = m; } export function text(el, m) { el.textContent = m; }`,
			"main.js": `const { put } = await import("./dom.js"); put(document.body, "<b>b</b>"); const m = await import("./dom.js"); m.text(document.body, "<img src=x onerror=go()>"); ` +
				`import("./dom.js").then(({ text }) => text(document.body, "<img src=x onerror=go()>")); import("./dom.js").then((n) => n.put(document.body, "<i>i</i>"));`,
		}, ""},
		// Found (f25): a module object given to the app's own function, whose parameter's
		// member is called with markup, was neither followed nor refused: each call of the
		// function is read, and where it gives the parameter a module object (import * as, or
		// a dynamic import's), the call is read into that module's export; where code the
		// build does not read may call the function (exported, passed as a value), an
		// argument the policy blocks is an error.
		{"a namespace given to the app's own function", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; } export function text(el, m) { el.textContent = m; }`,
			"main.js": `import * as dom from "./dom.js"; function run(x) { x.text(document.body, "<img src=x onerror=go()>"); x.put(document.body, "<img src=x onerror=go()>"); } run(dom);`,
		}, `main.js:1:124: error: the value given to x.put(…), imported from dom.js (run's parameter x is given import * as dom), whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"a dynamic import's namespace given to an arrow, through another function", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `const m = await import("./dom.js"); const run = (x) => x.put(document.body, "<img src=x onerror=go()>"); function start(y) { run(y); } start(m);`,
		}, `main.js:1:77: error: the value given to x.put(…), imported from dom.js (run's parameter x is given import("./dom.js")), whose code gives its parameter m to innerHTML`},
		{"a namespace given to a function another module exports", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"run.js":  `export function run(x) { x.put(document.body, "<img src=x onerror=go()>"); }`,
			"main.js": `import * as dom from "./dom.js"; import { run } from "./run.js"; run(dom);`,
		}, `run.js:1:47: error: the markup given to x.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (x is a parameter of run, which code the build does not read may call: it is exported or passed as a value)`},
		{"a function passed as a value, given a namespace there", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function run(x) { x.put(document.body, "<a href=\"javascript:go()\">a</a>"); } setTimeout(run, 0, dom);`,
		}, `main.js:1:73: error: the value given to x.put(…), imported from dom.js (run's parameter x is given import * as dom), whose code gives its parameter m to innerHTML, holds a javascript: URL`},
		{"a function and a namespace given where the build does not read them", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function run(x) { x.put(document.body, "<img src=x onerror=go()>"); } const api = { run }; api.run(dom);`,
		}, `main.js:1:73: error: the markup given to x.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (x is a parameter of run, which code the build does not read may call: it is exported or passed as a value)`},
		// Found attacking (af25): a module object in an object a call gives, or a parameter's
		// default, each built with exit 0; a parameter given something else where the script
		// gives a module object as a value is refused, and one only ever given the module
		// object, or no module object, still builds.
		{"a namespace in an object given, or a default", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function run(o) { o.d.put("<img src=x onerror=go()>"); } run({ d: dom }); function def(x = dom) { x.put("<img src=x onerror=go()>"); } def();`,
		}, `main.js:1:60: error: the markup given to o.d.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (o is a parameter of run, which is given what the build does not read as a module object, where the script gives one as a value)`},
		{"a namespace in an array given", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function run(xs) { xs[0].put("<img src=x onerror=go()>"); } run([dom]);`,
		}, `main.js:1:63: error: the markup given to xs[0].put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (xs is a parameter of run, which is given what the build does not read as a module object`},
		{"a namespace given to a rest parameter", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function run(...xs) { xs[0].put("<img src=x onerror=go()>"); } run(dom);`,
		}, `main.js:1:66: error: the markup given to xs[0].put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (xs is a parameter of run, the rest parameter: an array of what its calls give`},
		{"a parameter's default, read", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function def(x = dom) { x.put("<img src=x onerror=go()>"); } def();`,
		}, `main.js:1:64: error: the markup given to x.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (x is a parameter of def, which is given what the build does not read as a module object`},
		{"a parameter given a namespace and a plain object", map[string]string{
			"dom.js":  `export function text(m) { document.body.textContent = m; }`,
			"main.js": `import * as dom from "./dom.js"; const plain = { text(m) { document.body.textContent = m; } }; function run(x) { x.text("<img src=x onerror=go()>"); } run(dom); run(plain); run();`,
		}, ""},
		// Found attacking (af25): a module object given to the app's own function in these
		// ways built with exit 0, and the page as written runs dom.put's innerHTML with the
		// handler the built page's policy blocks: each goes where the build does not follow it
		// (moduleEscape), and a call whose callee the build cannot read is refused there.
		{"a namespace a function returns", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function id(x) { return x; } id(dom).put("<img src=x onerror=go()>");`,
		}, `main.js:1:75: error: the markup given to`},
		{"a namespace given to a parameter written to", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function run(x) { if (!x) x = {}; x.put("<img src=x onerror=go()>"); } run(dom);`,
		}, `main.js:1:74: error: the markup given to`},
		{"a namespace given to a generator", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function* run(x) { x.put("<img src=x onerror=go()>"); } run(dom).next();`,
		}, `main.js:1:59: error: the markup given to`},
		{"a namespace's member by a parameter's key", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function run(x, k) { x[k]("<img src=x onerror=go()>"); } run(dom, "put");`,
		}, `main.js:1:60: error: the markup given to`},
		{"a namespace given as this", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function run() { this.put("<img src=x onerror=go()>"); } run.call(dom);`,
		}, `main.js:1:60: error: the markup given to`},
		{"a namespace given to a class's constructor", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; class Run { constructor(x) { x.put("<img src=x onerror=go()>"); } } new Run(dom);`,
		}, `main.js:1:69: error: the markup given to`},
		{"a namespace destructured in the function's body", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function run(x) { const { put } = x; put("<img src=x onerror=go()>"); } run(dom);`,
		}, `main.js:1:75: error: the markup given to`},
		{"a namespace by a key the build does not read", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const k = location.hash.slice(1); dom[k]("<img src=x onerror=go()>");`,
		}, `main.js:1:75: error: the markup given to dom[…](…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls`},
		{"this and a key of an exported function's parameter, another module's", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"run.js":  `export function run(k) { this[k]("<img src=x onerror=go()>"); } export function each(x, k) { x[k]("<img src=x onerror=go()>"); }`,
			"main.js": `import * as dom from "./dom.js"; import { run, each } from "./run.js"; run.call(dom, "put"); each(dom, "put");`,
		}, `run.js:1:34: error: the markup given to this[…](…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (this is what a call of run gives it, and run is exported: another module's call may give it a module object`},
		// Found attacking (af26): a module object, or its function, goes where the build does
		// not follow it in these ways too, and each built with exit 0; the page as written runs
		// dom.put's innerHTML with the handler the built page's policy blocks.
		{"a namespace in an object literal", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const o = { dom }; o.dom.put("<img src=x onerror=go()>");`,
		}, `main.js:1:63: error: the `},
		{"a namespace in an array literal", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; [dom][0].put("<img src=x onerror=go()>");`,
		}, `main.js:1:47: error: the markup given to […][…].put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls ([…][…].put is read from what the build does not read (a group's value, an array literal), and import * as dom goes where the build does not follow it, at main.js:1:35, so it may be that module's put)`},
		{"groups and array literals where no module object goes unfollowed", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; dom.put("<b>b</b>"); const app = { show(m) { document.body.textContent = m; } }; (0, app.show)("<img src=x onerror=go()>"); [app][0].show("<img src=x onerror=go()>"); (location.hash ? app : app).show("<img src=x onerror=go()>");`,
		}, ""},
		{"a namespace in an object literal, after it goes elsewhere", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function id(x) { return x; } id(dom); const o = { dom }; o.dom.put("<img src=x onerror=go()>");`,
		}, `main.js:1:101: error: the markup given to o.dom.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (o is bound to what the build does not read as a function`},
		{"a namespace spread into an object", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; ({ ...dom }).put("<img src=x onerror=go()>");`,
		}, `main.js:1:51: error: the `},
		{"a namespace by a conditional", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const o = { put() {} }; (location.hash ? dom : o).put("<img src=x onerror=go()>");`,
		}, `main.js:1:88: error: the `},
		{"a namespace as an object's prototype", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const o = { __proto__: dom }; o.put("<img src=x onerror=go()>");`,
		}, `main.js:1:70: error: the `},
		{"a namespace by a getter", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const o = { get d() { return dom; } }; o.d.put("<img src=x onerror=go()>");`,
		}, `main.js:1:81: error: the `},
		{"a namespace in a class's field", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; class A { d = dom; run() { this.d.put("<img src=x onerror=go()>"); } } new A().run();`,
		}, `main.js:1:72: error: the `},
		// The fix those messages give, a call on the module object itself, is read into the
		// module; and where a module object goes unfollowed, the calls the build reads (the
		// app's own functions, objects and classes) and plain markup still build.
		{"a namespace returned, its function called on it", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function id(x) { return x; } id(dom); dom.put("<img src=x onerror=go()>");`,
		}, `main.js:1:80: error: the value given to dom.put(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"a namespace returned, the app's own calls and plain markup", map[string]string{
			"dom.js": `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function id(x) { return x; } id(dom).put("<b>b</b>"); dom.put("<i>i</i>"); ` +
				`const app = { show(m) { document.body.textContent = m; } }; app.show("<img src=x onerror=go()>"); function text(m) { document.body.textContent = m; } text("<img src=x onerror=go()>"); ` +
				`class View { show(m) { document.body.textContent = m; } run() { this.show("<img src=x onerror=go()>"); } } new View().run();`,
		}, ""},
		{"a namespace given to a function that destructures it", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; } export function text(el, m) { el.textContent = m; }`,
			"main.js": `import * as dom from "./dom.js"; function run({ put, text }) { text(document.body, "<img src=x onerror=go()>"); put(document.body, "<img src=x onerror=go()>"); } run(dom);`,
		}, `main.js:1:132: error: the value given to put(…), imported from dom.js (run's parameter put is given import * as dom), whose code gives its parameter m to innerHTML`},
		{"a namespace given to an object's method, a class's, an array's callback", map[string]string{
			"dom.js": `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const app = { run(x) { x.put(document.body, "<img src=x onerror=go()>"); } }; app.run(dom); ` +
				`class A { run(x) { x.put(document.body, "<b>b</b>"); } } new A().run(dom); [dom].forEach((x) => x.put(document.body, "<i>i</i>"));`,
		}, `main.js:1:78: error: the value given to x.put(…), imported from dom.js (app.run's parameter x is given import * as dom)`},
		{"namespaces and others given to the app's own function, plain", map[string]string{
			"dom.js": `export function put(el, m) { el.innerHTML = m; } export function text(el, m) { el.textContent = m; }`,
			"main.js": `import * as dom from "./dom.js"; function run(x) { x.put(document.body, "<b>b</b>"); x.text(document.body, "<img src=x onerror=go()>"); } run(dom); ` +
				`function each({ text }) { text(document.body, "<img src=x onerror=go()>"); } each(dom); ` +
				`function show(el) { el.append("<img src=x onerror=go()>"); } show(document.body);`,
		}, ""},
		// Found attacking (af27): a module's function used as a value, not called where the
		// build reads the call (Reflect.apply, apply, bind, a timer's or an array's callback,
		// a group), a module object given to the platform's code (Object.assign,
		// Object.values, Array.from(arguments), a parameter's default destructured), a dynamic
		// import reached through a promise the build does not read, and a namespace another
		// module re-exports, returned: each built with exit 0, and the page as written runs
		// dom.put's innerHTML with the handler the built page's policy blocks.
		{"a module's function by Reflect.apply", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; Reflect.apply(dom.put, null, [document.body, "<img src=x onerror=go()>"]);`,
		}, `main.js:1:79: error: the value given to dom.put(…), imported from dom.js (dom.put read as a value and called), whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"a module's function by apply", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; dom.put.apply(null, [document.body, "<img src=x onerror=go()>"]);`,
		}, `main.js:1:70: error: the value given to dom.put(…), imported from dom.js (dom.put read as a value and called), whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"a module's function by call", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; dom.put.call(null, document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:68: error: the value given to dom.put(…), imported from dom.js (dom.put read as a value and called), whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"a module's function bound, called", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; dom.put.bind(null)(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:68: error: the value given to dom.put(…), imported from dom.js (dom.put read as a value and called), whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"a module's function given to setTimeout", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; setTimeout(dom.put, 0, document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:72: error: the value given to dom.put(…), imported from dom.js (dom.put read as a value and called), whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"a module's function given to forEach", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; ["<img src=x onerror=go()>"].forEach(dom.put);`,
		}, `main.js:1:35: error: the value given to dom.put(…), imported from dom.js (dom.put read as a value and called), whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"a module's function called in an arrow forEach is given", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const f = dom.put; ["<img src=x onerror=go()>"].forEach((x) => f(x));`,
		}, `main.js:1:54: error: the value given to the parameter x of the function written there, which its code gives f(…), imported from dom.js, holds the inline event handler onerror="go()"`},
		{"a module's function in a group", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; (0, dom.put)(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:62: error: the value given to dom.put(…), imported from dom.js (dom.put read as a value and called), whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"an imported function by Reflect.apply, a timer", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import { put } from "./dom.js"; Reflect.apply(put, null, [document.body, "<img src=x onerror=go()>"]); setTimeout(put, 0, document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:74: error: the value given to put(…), imported from dom.js (put read as a value and called), whose code gives its parameter m to innerHTML`},
		{"a module object given to Object.assign", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; Object.assign({}, dom).put("<img src=x onerror=go()>");`,
		}, `main.js:1:61: error: the markup given to Object.assign(…).put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (Object.assign(…).put is read from what the platform's Object gives, which holds what it is given, and import * as dom goes where the build does not follow it, at main.js:1:52`},
		{"a module object given to Object.values", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; Object.values(dom)[0]("<img src=x onerror=go()>");`,
		}, `main.js:1:56: error: the markup given to Object.values(…)[…](…) holds the inline event handler onerror="go()"`},
		{"a module object by Array.from(arguments)", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function run() { Array.from(arguments)[0].put("<img src=x onerror=go()>"); } run(dom);`,
		}, `main.js:1:80: error: the markup given to Array.from(…)[…].put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (Array.from(…)[…].put is read from what the platform's Array gives, which holds what it is given, and import * as dom goes where the build does not follow it, at main.js:1:115`},
		{"a module object as a parameter's default, destructured", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function run({ put } = dom) { put("<img src=x onerror=go()>"); } run();`,
		}, `main.js:1:68: error: the markup given to put(…) holds the inline event handler onerror="go()"`},
		{"a dynamic import through Promise.resolve", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `Promise.resolve(import("./dom.js")).then((m) => m.put("<img src=x onerror=go()>"));`,
		}, `main.js:1:55: error: the markup given to m.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (m is a parameter of the function written there, whose calls the build does not read, and the module object import("./dom.js") gives goes where the build does not follow it, at main.js:1:17)`},
		{"a dynamic import through Promise.all", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `Promise.all([import("./dom.js")]).then(([m]) => m.put("<img src=x onerror=go()>"));`,
		}, `main.js:1:55: error: the markup given to m.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (m is a parameter of the function written there, whose calls the build does not read, and the module object import("./dom.js") gives goes where the build does not follow it, at main.js:1:14)`},
		{"a dynamic import a function returns", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `function load() { return import("./dom.js"); } load().then((m) => m.put("<img src=x onerror=go()>"));`,
		}, `main.js:1:73: error: the markup given to m.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (m is a parameter of the function written there, whose calls the build does not read, and the module object import("./dom.js") gives goes where the build does not follow it, at main.js:1:26)`},
		{"a dynamic import through two thens", map[string]string{
			"dom.js":  `export function put(m) { document.body.innerHTML = m; }`,
			"main.js": `import("./dom.js").then((m) => m).then((m) => m.put("<img src=x onerror=go()>"));`,
		}, `main.js:1:53: error: the markup given to m.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (m is a parameter of the function written there, whose calls the build does not read)`},
		{"a namespace another module re-exports, returned", map[string]string{
			"dom.js":   `export function put(m) { document.body.innerHTML = m; }`,
			"index.js": `export * as dom from "./dom.js";`,
			"main.js":  `import { dom } from "./index.js"; function id(x) { return x; } id(dom).put("<img src=x onerror=go()>");`,
		}, `main.js:1:76: error: the markup given to id(…).put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (id(…).put is read from what the build does not read (a call's result, a key it does not read), and import { dom } goes where the build does not follow it, at main.js:1:67, so it may be that module's put)`},
		{"a namespace another module exports by name, returned", map[string]string{
			"dom.js":   `export function put(m) { document.body.innerHTML = m; }`,
			"index.js": `import * as dom from "./dom.js"; export { dom };`,
			"main.js":  `import { dom } from "./index.js"; function get() { return dom; } get().put("<img src=x onerror=go()>");`,
		}, `main.js:1:76: error: the markup given to get(…).put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (get(…).put is read from what the build does not read (a call's result, a key it does not read), and import { dom } goes where the build does not follow it, at main.js:1:59, so it may be that module's put)`},
		// Found af27, the same shapes otherwise: a parameter's member, a dynamic import's
		// namespace's member and a name destructured from it, read as values; a package's
		// function given to a timer; a class's static field bound to a module's function.
		{"a parameter's member given to setTimeout", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function run(x) { setTimeout(x.put, 0, document.body, "<img src=x onerror=go()>"); } run(dom);`,
		}, `main.js:1:88: error: the value given to x.put(…), imported from dom.js (run's parameter x is given import * as dom), whose code gives its parameter m to innerHTML`},
		{"a dynamic import's member given to setTimeout", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `const m = await import("./dom.js"); setTimeout(m.put, 0, document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:73: error: the value given to m.put(…), imported from dom.js (m.put read as a value and called), whose code gives its parameter m to innerHTML`},
		{"import().then's parameter's member given to setTimeout", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import("./dom.js").then((m) => setTimeout(m.put, 0, document.body, "<img src=x onerror=go()>"));`,
		}, `main.js:1:68: error: the value given to m.put(…), imported from dom.js (m.put read as a value and called)`},
		{"a name destructured from a dynamic import, by Reflect.apply", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `const { put } = await import("./dom.js"); Reflect.apply(put, null, [document.body, "<img src=x onerror=go()>"]);`,
		}, `main.js:1:84: error: the value given to put(…), imported from dom.js (put read as a value and called)`},
		{"a name destructured from a dynamic import, in an array", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `const { put } = await import("./dom.js"); const fns = [put]; fns[0](document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:84: error: the markup given to fns[…](…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (fns is bound to what the build does not read as a function, and put (destructured from import("./dom.js")) goes where the build does not follow it, at main.js:1:56`},
		{"a package's function given to setTimeout", map[string]string{
			"node_modules/lib/package.json": `{"name": "lib", "version": "1.0.0", "type": "module", "main": "index.js"}`,
			"node_modules/lib/index.js":     `export function render(el, m) { el.innerHTML = m; }`,
			"main.js":                       `import { render } from "lib"; setTimeout(render, 0, document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:68: error: the markup given to lib's render(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build does not read what the package's code does with it`},
		{"a class's static field bound to a module's function", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; class A { static f = dom.put; } A.f(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:85: error: the markup given to A.f(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read which function it calls (A is the app's own class, whose body holds what the build does not follow, and dom.put (import * as dom) goes where the build does not follow it, at main.js:1:55`},
		// Found af27: arguments spread from, or applied as, a const bound to an array literal;
		// a module's function given to the platform's code through a name bound to what holds
		// it (destructured from the namespace, an object's key), Function.prototype.call.call,
		// a const bound to Reflect.apply: each built with exit 0.
		{"arguments from a const bound to an array literal", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const args = [document.body, "<img src=x onerror=go()>"]; dom.put.apply(null, args); dom.put(...args); Reflect.apply(dom.put, null, args);`,
		}, `main.js:1:63: error: the value given to dom.put(…), imported from dom.js`},
		{"the app's own function given a const array spread", map[string]string{
			"main.js": `function put(el, m) { el.innerHTML = m; } const args = [document.body, "<img src=x onerror=go()>"]; put(...args);`,
		}, `main.js:1:72: error: the value given to put(…)'s parameter m, which its code gives innerHTML`},
		{"a name destructured from a namespace given to setTimeout", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const { put } = dom; setTimeout(put, 0, document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:89: error: the markup given to setTimeout(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read what it calls with its arguments (it is given put, and import * as dom goes where the build does not follow it, at main.js:1:50, so put may be that module's function)`},
		{"an object's key bound to a module's function given to setTimeout", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const o = { put: dom.put }; setTimeout(o.put, 0, document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:98: error: the markup given to setTimeout(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read what it calls with its arguments (it is given o.put, and dom.put (import * as dom) goes where the build does not follow it, at main.js:1:51`},
		{"Function.prototype.call.call of a module's function", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; Function.prototype.call.call(dom.put, null, document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:93: error: the markup given to Function.prototype.call.call(…) holds the inline event handler onerror="go()"`},
		{"a const bound to Reflect.apply", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const f = Reflect.apply; f(dom.put, null, [document.body, "<img src=x onerror=go()>"]);`,
		}, `main.js:1:92: error: the markup given to f(…) holds the inline event handler onerror="go()"`},
		// Found af27: a function bound with markup and given as a value, whoever calls it
		// gives the bound arguments first: built with exit 0, a module's and the app's own.
		{"a module's function bound with markup, given to setTimeout", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const fn = dom.put; setTimeout(dom.put.bind(null, document.body, "<b>b</b>")); setTimeout(fn.bind(null, document.body, "<img src=x onerror=go()>"));`,
		}, `main.js:1:153: error: the value given to fn(…), imported from dom.js (fn read as a value and called), whose code gives its parameter m to innerHTML`},
		{"the app's own function bound with markup, given to setTimeout", map[string]string{
			"main.js": `function put(el, m) { el.innerHTML = m; } setTimeout(put.bind(null, document.body, "<img src=x onerror=go()>"));`,
		}, `main.js:1:84: error: the value given to put(…)'s parameter m, which its code gives innerHTML`},
		// Found af27: the app's own function's parameters given to an imported function, the
		// one that reaches the sink named (the first, el, was named, at its argument).
		{"parameters given to an imported function, through Reflect.apply", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function put(el, m) { return Reflect.apply(dom.put, null, [el, m]); } put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:123: error: the value given to put(…)'s parameter m, which its code gives dom.put(…), imported from dom.js (dom.put read as a value and called), holds the inline event handler onerror="go()"`},
		{"parameters given to an imported function", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import { put } from "./dom.js"; function show(el, m) { put(el, m); } show(document.body, "<b>b</b>"); show(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:123: error: the value given to show(…)'s parameter m, which its code gives put(…), imported from dom.js, holds the inline event handler onerror="go()"`},
		// Found af27: a wrapper that spreads its rest parameter, or an array a callback is
		// given, into a module's function: built with exit 0.
		{"a rest parameter spread into a module's function", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const put = (...a) => dom.put(...a); put(document.body, "<b>b</b>"); put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:122: error: the value given to put(…)'s parameter a, which its code gives dom.put(…), imported from dom.js, holds the inline event handler onerror="go()"`},
		{"an array forEach gives spread into a module's function", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; [[document.body, "<img src=x onerror=go()>"]].forEach((a) => dom.put(...a));`,
		}, `main.js:1:51: error: the value given to the parameter a of the function written there, which its code gives dom.put(…), imported from dom.js`},
		// Found af27, fixed af28: an array only a chain of call sites gives (a rest parameter,
		// the arguments object) applied to a module's function built with exit 0: functionCalls
		// read apply's and Reflect.apply's list where an array literal (or a const bound to one)
		// said it only.
		{"a rest parameter applied to a module's function", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function put(...a) { return Reflect.apply(dom.put, null, a); } function show(...a) { return dom.put.apply(null, a); } put(document.body, "<img src=x onerror=go()>"); show(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:171: error: the value given to put(…)'s parameter a, which its code gives dom.put(…), imported from dom.js`},
		{"the arguments object applied to a module's function", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function put() { return dom.put.apply(null, arguments); } put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:111: error: the value given to put(…)'s arguments object, which its code gives dom.put(…), imported from dom.js`},
		{"calls given nothing that holds a module object where one escapes, plain markup", map[string]string{
			"dom.js": `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function id(x) { return x; } id(dom); console.log("<img src=x onerror=go()>"); const app = { show(m) { document.body.textContent = m; } }; ` +
				`setTimeout(app.show, 0, "<img src=x onerror=go()>"); const { put } = dom; setTimeout(put, 0, document.body, "<b>b</b>");`,
		}, ""},
		// What the build reads as no function with a sink goes nowhere that matters: a
		// namespace's data and a function whose parameters reach no sink, read as values,
		// and a module's function given plain markup as a value.
		{"a module's data and sinkless functions read as values, plain markup", map[string]string{
			"dom.js": `export const VERSION = "1.0"; export function text(el, m) { el.textContent = m; } export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; import { text } from "./dom.js"; console.log(dom.VERSION); const t = [dom.text, text]; setTimeout(dom.put, 0, document.body, "<b>b</b>"); ` +
				`[document.body].forEach(text); const app = { show(m) { document.body.textContent = m; } }; (location.hash ? app : app).show("<img src=x onerror=go()>"); Reflect.apply(dom.text, null, [document.body, "<img src=x onerror=go()>"]);`,
		}, ""},
		// this in another module's method, and an instance of another module's class (af28):
		// each built with exit 0. A method's this.put(…) was read as a call of put in a class's
		// instance methods only; a static method's this, an object literal's methods, and
		// new View().put(…) from another module were not read, and an exported function's
		// this.put(…), whose this its caller gives, was not refused.
		{"this.put in another module's exported object's method", map[string]string{
			"dom.js":  `export const dom = { put(el, m) { el.innerHTML = m; }, run(el, m) { this.put(el, m); } };`,
			"main.js": `import { dom } from "./dom.js"; dom.run(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:56: error: the value given to dom.run(…), imported from dom.js, whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"this.put in another module's exported object's method, by a namespace, an arrow, a constant key", map[string]string{
			"dom.js":  `export const dom = { put(el, m) { el.innerHTML = m; }, run(el, m) { const go = () => this["put"](el, m); go(); } };`,
			"main.js": `import * as ns from "./dom.js"; ns.dom.run(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:59: error: the value given to ns.dom.run(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"this.put in another module's class's instance method", map[string]string{
			"dom.js":  `export class View { put(el, m) { el.innerHTML = m; } run(el, m) { this.put(el, m); } }`,
			"main.js": `import { View } from "./dom.js"; new View().run(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:64: error: the value given to View.prototype.run(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"this.put in another module's class's static method", map[string]string{
			"dom.js":  `export class View { static put(el, m) { el.innerHTML = m; } static run(el, m) { this.put(el, m); } }`,
			"main.js": `import { View } from "./dom.js"; View.run(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:58: error: the value given to View.run(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"super.put in another module's subclass, its instance by a const", map[string]string{
			"dom.js":  `class Base { put(el, m) { el.innerHTML = m; } } export class View extends Base { run(el, m) { super.put(el, m); } }`,
			"main.js": `import { View } from "./dom.js"; const v = new View(); v.run(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:77: error: the value given to View.prototype.run(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"another module's class's instance method called", map[string]string{
			"dom.js":  `export class View { put(el, m) { el.innerHTML = m; } }`,
			"main.js": `import { View } from "./dom.js"; new View().put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:64: error: the value given to View.prototype.put(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"an instance method another module's class inherits from elsewhere", map[string]string{
			"base.js": `export class Base { put(el, m) { el.innerHTML = m; } }`,
			"dom.js":  `import { Base } from "./base.js"; export class View extends Base {}`,
			"main.js": `import { View } from "./dom.js"; new View().put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:64: error: the markup given to View.prototype.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read the function dom.js exports as View.prototype.put`},
		{"this.put in an exported function, this what the caller gives", map[string]string{
			"dom.js":  `export function run(el, m) { this.put(el, m); }`,
			"main.js": `import { run } from "./dom.js"; const o = { put(el, m) { el.innerHTML = m; } }; run.call(o, document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:108: error: the value given to run(…), imported from dom.js (run read as a value and called), whose code gives its parameter m to this.put(…), which the build cannot read (this is what a call of run gives it), holds the inline event handler onerror="go()"`},
		{"this.put in a default-exported object literal's method", map[string]string{
			"dom.js":  `const put = (el, m) => { el.innerHTML = m; }; export default { put, run(el, m) { this.put(el, m); } };`,
			"main.js": `import dom from "./dom.js"; dom.run(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:52: error: the value given to dom.run(…), imported from dom.js, whose code gives its parameter m to this.put(…), which the build cannot read (this is what a call of run gives it)`},
		// More of the same kind (af28): a class's field given an arrow, an accessor, a member
		// of this read as a value, each reached by this.put(…), and a module's function that
		// gives its parameter to a third module's: built with exit 0. A field's function is
		// read as a method is (fieldNamed); an accessor's, or a field's other value, is
		// what the build does not read (readMember), as a const bound to this.put is.
		{"this.put a class's field's arrow, in another module", map[string]string{
			"dom.js":  `export class View { put = (el, m) => { el.innerHTML = m; }; run(el, m) { this.put(el, m); } }`,
			"main.js": `import { View } from "./dom.js"; new View().run(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:64: error: the value given to View.prototype.run(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"this.put a class's getter, in another module", map[string]string{
			"dom.js":  `export class View { get put() { return (el, m) => { el.innerHTML = m; }; } run(el, m) { this.put(el, m); } }`,
			"main.js": `import { View } from "./dom.js"; new View().run(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:64: error: the value given to View.prototype.run(…), imported from dom.js, whose code gives its parameter m to this.put(…), which the build cannot read (this is what a call of View.prototype.run gives it)`},
		{"this.put an object literal's getter, in another module", map[string]string{
			"dom.js":  `export const dom = { get put() { return (el, m) => { el.innerHTML = m; }; }, run(el, m) { this.put(el, m); } };`,
			"main.js": `import { dom } from "./dom.js"; dom.run(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:56: error: the value given to dom.run(…), imported from dom.js, whose code gives its parameter m to this.put(…), which the build cannot read (this is what a call of dom.run gives it)`},
		{"this.put bound to a const, in another module", map[string]string{
			"dom.js":  `export const dom = { put(el, m) { el.innerHTML = m; }, run(el, m) { const f = this.put; f.call(this, el, m); } };`,
			"main.js": `import { dom } from "./dom.js"; dom.run(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:56: error: the value given to dom.run(…), imported from dom.js, whose code gives its parameter m to f.call(…), which the build cannot read (this is what a call of dom.run gives it)`},
		{"a module's function that gives its parameter to a third module's", map[string]string{
			"raw.js":  `export function raw(el, m) { el.innerHTML = m; }`,
			"dom.js":  `import { raw } from "./raw.js"; export function put(el, m) { raw(el, m); }`,
			"main.js": `import { put } from "./dom.js"; put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:52: error: the value given to put(…), imported from dom.js, whose code gives its parameter m to raw(…), imported from raw.js, holds the inline event handler onerror="go()"`},
		// Refused before too: another module's instance's field, this.put the constructor sets.
		{"a class's field's arrow called on another module's instance", map[string]string{
			"dom.js":  `export class View { put = (el, m) => { el.innerHTML = m; }; }`,
			"main.js": `import { View } from "./dom.js"; new View().put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:64: error: the markup given to View.prototype.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read the function dom.js exports as View.prototype.put`},
		{"this.put the constructor sets, in another module", map[string]string{
			"dom.js":  `export class View { constructor() { this.put = (el, m) => { el.innerHTML = m; }; } run(el, m) { this.put(el, m); } }`,
			"main.js": `import { View } from "./dom.js"; new View().run(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:64: error: the value given to View.prototype.run(…), imported from dom.js, whose code gives its parameter m to this.put(…), which the build cannot read`},
		// Over-strict (af28): a custom element class another module exports, given to
		// customElements.define (an escape), its instance's methods the platform's: a call
		// given markup with a handler was refused as a module's unread callee
		// (v.setAttribute(…)), though no module's code gets it.
		{"another module's custom element's inherited methods, text (builds)", map[string]string{
			"dom.js":  `export class View extends HTMLElement { put(m) { this.textContent = m; } }`,
			"main.js": `import { View } from "./dom.js"; customElements.define("x-view", View); const v = new View(); v.setAttribute("title", "<img src=x onerror=go()>"); v.put("<img src=x onerror=go()>"); v.append("<img src=x onerror=go()>"); document.body.append(v);`,
		}, ""},
		{"another module's class, Object.prototype's methods (builds)", map[string]string{
			"dom.js":  `export class Store { get(k) { return k; } }`,
			"main.js": `import { Store } from "./dom.js"; const s = new Store(); console.log(s.hasOwnProperty("<img src=x onerror=go()>"), s.get("<img src=x onerror=go()>"));`,
		}, ""},
		{"an inherited platform sink on another module's element", map[string]string{
			"dom.js":  `export class View extends HTMLElement {}`,
			"main.js": `import { View } from "./dom.js"; customElements.define("x-view", View); const v = new View(); v.insertAdjacentHTML("beforeend", "<img src=x onerror=go()>");`,
		}, `main.js:1:129: error: the markup given to insertAdjacentHTML holds the inline event handler onerror`},
		{"a method the constructor sets, on another module's instance", map[string]string{
			"dom.js":  `export class View { constructor() { this.put = (el, m) => { el.innerHTML = m; }; } }`,
			"main.js": `import { View } from "./dom.js"; new View().put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:64: error: the markup given to View.prototype.put(…) holds the inline event handler onerror="go()", which cannot run under the bundle's policy: the build cannot read the function dom.js exports as View.prototype.put`},
		{"a method another app class gives another module's instance", map[string]string{
			"base.js": `export class Base { put(el, m) { el.innerHTML = m; } }`,
			"dom.js":  `import { Base } from "./base.js"; export class View extends Base { constructor() { super(); } }`,
			"main.js": `import { View } from "./dom.js"; new View().put(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:64: error: the markup given to View.prototype.put(…)`},
		// Where a module object escapes, handler markup no sink parses (af28): builds.
		{"a template's handler given where a module object escapes (builds)", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function id(x) { return x; } id(dom); const t = document.createElement("div"); t.append(document.createTextNode("x")); id("<template><img src=x onerror=go()></template>"); dom.put(document.body, "<template><img src=x onerror=go()></template>");`,
		}, ""},
		{"a blob and JSON given handler markup where a module object escapes (builds)", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function id(x) { return x; } id(dom); const b = new Blob(["<img src=x onerror=go()>"], { type: "text/plain" }); console.log(b.size, JSON.stringify({ html: "<img src=x onerror=go()>" }));`,
		}, ""},
		{"a local object's data given handler markup where a module object escapes (builds)", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; function id(x) { return x; } id(dom); const cache = { items: [] }; cache.items.push("<img src=x onerror=go()>"); console.log(cache.items.length);`,
		}, ""},
		// An array the script changes, spread or applied to a sink function (af28): built with
		// exit 0 (arrayAt read a const's array literal as all it holds, a push's value none).
		// Each value it may hold is read as given to each parameter (checkListCall).
		{"an array pushed to, applied to a module's function", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const a = [document.body]; a.push("<img src=x onerror=go()>"); dom.put.apply(null, a);`,
		}, `main.js:1:68: error: the value given to dom.put(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"an array pushed to, spread into a module's function", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; const a = [document.body]; a.push("<img src=x onerror=go()>"); dom.put(...a);`,
		}, `main.js:1:68: error: the value given to dom.put(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"an array made by concat, applied to a module's function", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; }`,
			"main.js": `import * as dom from "./dom.js"; Reflect.apply(dom.put, null, [document.body].concat("<img src=x onerror=go()>"));`,
		}, `main.js:1:86: error: the markup given to […].concat(…) holds the inline event handler onerror="go()"`},
		{"an array pushed to, applied to the app's own function", map[string]string{
			"main.js": `function put(el, m) { el.innerHTML = m; } const a = [document.body]; a.push("<img src=x onerror=go()>"); put.apply(null, a);`,
		}, `main.js:1:77: error: the value given to put(…), whose code gives its parameter m to innerHTML`},
		{"arrays pushed to, plain markup, text", map[string]string{
			"dom.js":  `export function put(el, m) { el.innerHTML = m; } export function text(el, m) { el.textContent = m; }`,
			"main.js": `import * as dom from "./dom.js"; const a = [document.body]; a.push("<b>b</b>"); dom.put(...a); const b = [document.body]; b.push("<img src=x onerror=go()>"); dom.text.apply(null, b); Reflect.apply(dom.text, null, b); const c = [document.body, "<i>i</i>"]; console.log(c.map(String)); dom.put(...c);`,
		}, ""},
		// More shapes (af28): an app class's inherited method, a bound method, a nested object's
		// method by this, an instance's method given to a timer.
		{"super.put in the app's subclass of another module's class", map[string]string{
			"dom.js":  `export class View { put(el, m) { el.innerHTML = m; } }`,
			"main.js": `import { View } from "./dom.js"; class Mine extends View { run(m) { super.put(document.body, m); } } new Mine().run("<img src=x onerror=go()>");`,
		}, `main.js:1:117: error: the markup given to Mine(…).run(…) holds the inline event handler onerror="go()"`},
		{"a module's method bound to its object", map[string]string{
			"dom.js":  `export const dom = { put(el, m) { el.innerHTML = m; }, run(el, m) { this.put(el, m); } };`,
			"main.js": `import { dom } from "./dom.js"; dom.run.bind(dom)(document.body, "<img src=x onerror=go()>"); const r = dom.run.bind(dom); r(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:66: error: the markup given to dom.run.bind(…)(…) holds the inline event handler onerror="go()"`},
		{"this.inner.put in a module's method", map[string]string{
			"dom.js":  `export const dom = { inner: { put(el, m) { el.innerHTML = m; } }, run(el, m) { this.inner.put(el, m); } };`,
			"main.js": `import { dom } from "./dom.js"; dom.run(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:56: error: the value given to dom.run(…), imported from dom.js, whose code gives its parameter m to this.inner.put(…), which the build cannot read (this is what a call of dom.run gives it)`},
		{"a static method another module's class gives the app's, its this the app's class", map[string]string{
			"dom.js":  `export class View { static run(el, m) { this.put(el, m); } }`,
			"main.js": `import { View } from "./dom.js"; class Mine extends View { static put(el, m) { el.innerHTML = m; } } Mine.run(document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:126: error: the value given to Mine.run(…), imported from dom.js, whose code gives its parameter m to this.put(…), which the build cannot read (this is what a call of View.run gives it)`},
		{"another module's instance's method in an arrow given to a timer", map[string]string{
			"dom.js":  `export class View { put(el, m) { el.innerHTML = m; } }`,
			"main.js": `import { View } from "./dom.js"; const v = new View(); setTimeout(() => v.put(document.body, "<img src=x onerror=go()>")); setTimeout(v.put, 0, document.body, "<img src=x onerror=go()>");`,
		}, `main.js:1:94: error: the value given to View.prototype.put(…), imported from dom.js, whose code gives its parameter m to innerHTML`},
		{"this and instances of another module, plain markup and text", map[string]string{
			"dom.js": `export const dom = { put(el, m) { el.innerHTML = m; }, text(el, m) { el.textContent = m; }, run(el, m) { this.put(el, m); }, say(el, m) { this.text(el, m); } }; ` +
				`export class View { put(el, m) { el.innerHTML = m; } text(el, m) { el.textContent = m; } run(el, m) { this.put(el, m); } static log(m) { this.say(m); } static say(m) { console.log(m); } } ` +
				`export function run(el, m) { this.put(el, m); } export function note(m) { this.log(m); }`,
			"main.js": `import { dom, View, run, note } from "./dom.js"; import "./other.js"; dom.run(document.body, "<b>b</b>"); dom.say(document.body, "<img src=x onerror=go()>"); const v = new View(); v.run(document.body, "<i>i</i>"); ` +
				`v.text(document.body, "<img src=x onerror=go()>"); View.log("<img src=x onerror=go()>"); run.call(dom, document.body, "<b>b</b>"); note.call(console, "a <b> tag");`,
			"raw.js": `export function raw(el, m) { el.innerHTML = m; } export function text(el, m) { el.textContent = m; }`,
			"wrap.js": `import { raw, text } from "./raw.js"; export function put(el, m) { raw(el, m); } export function say(el, m) { text(el, m); } ` +
				`export class Field { put = (el, m) => { el.textContent = m; }; get html() { return ""; } run(el, m) { this.put(el, m); } }`,
			"other.js": `import { put, say, Field } from "./wrap.js"; put(document.body, "<b>b</b>"); say(document.body, "<img src=x onerror=go()>"); new Field().run(document.body, "<img src=x onerror=go()>");`,
		}, ""},
		// A classic script's call of a function another declares, a global of the page.
		{"a function another classic script declares", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<script src=\"./a.js\"></script>\n<script src=\"./b.js\"></script>\n</body>\n</html>\n",
			"a.js":       `function put(el, m) { el.innerHTML = m; }`,
			"b.js":       `put(document.body, "<img src=x onerror=go()>");`,
		}, `b.js:1:20: error: the value given to put(…), declared in a.js, whose code gives its parameter m to innerHTML, holds the inline event handler onerror="go()"`},
		{"a var's arrow, scripts written in the page", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<script>var show = (m) => { document.write(m); };</script>\n<script>\nshow(\"<script>go()<\\/script>\");\n</script>\n</body>\n</html>\n",
		}, `index.html:7:6: error: the value given to show(…), declared in a script of the page, whose code gives its parameter m to document.write, holds a <script>`},
		{"classic scripts' own functions, plain markup", map[string]string{
			"index.html": "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<script src=\"./a.js\"></script>\n<script src=\"./b.js\"></script>\n</body>\n</html>\n",
			"a.js":       `function put(el, m) { el.innerHTML = m; } function text(m) { document.body.textContent = m; }`,
			"b.js":       `put(document.body, "<b>b</b>"); text("<img src=x onerror=go()>"); (function () { function put(el, m) {} put(document.body, "<img src=x onerror=go()>"); })();`,
		}, ""},
	} {
		t.Run(r.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name, text string) {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("miniapp.toml", "id = \"page\"\nname = \"Page\"\ndescription = \"A page that imports its helpers.\"\nentry = \"index.html\"\n")
			if _, own := r.files["index.html"]; !own {
				r.files["index.html"] = "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n"
			}
			for name, text := range r.files {
				write(name, text)
			}
			_, err := Build(context.Background(), dir, Options{NoWrite: true})
			switch {
			case r.want == "" && err != nil:
				t.Errorf("got %v, want no error", err)
			case r.want != "" && (err == nil || !strings.Contains(err.Error(), r.want)):
				t.Errorf("got %v, want an error naming %q", err, r.want)
			}
		})
	}
}
