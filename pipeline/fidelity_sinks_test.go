package pipeline

import "strings"

// sinkPages returns the pages of TestBuildKeepsWhatThePageDoes's rows for issue 23's gaps
// (fid23e): a script reaching a sink through another name than the one the build read
// (an alias, a computed or optionally chained member, document.write's several arguments),
// navigating to a javascript: URL, and the names that are not the page's objects (a
// parameter named document, write taken off the document). Each page records in
// window.extra.ran what ran: "not yet" until the code a sink was given runs (ranIt). A
// sink that runs while the page is parsed (document.write) is in a classic script; a
// navigation is started by the row's act, window.go(), which settles when the URL's code ran
// or the page's policy refused it (securitypolicyviolation).
func sinkPages() []extraFile {
	// files are the pages whose code is a classic script file of its own, name.js.
	files := map[string]bool{"nav_file": true}
	pages := []struct{ name, title, code string }{
		// Navigation to a javascript: URL, row per sink.
		{"nav_location", "location assigned a javascript: URL", `window.go = () => { location = "javascript:ranIt('location')"; return window.settled; };`},
		{"nav_location_href", "location.href set to a javascript: URL", `window.go = () => { location.href = "javascript:ranIt('href')"; return window.settled; };`},
		{"nav_assign", "location.assign of a javascript: URL", `window.go = () => { location.assign("javascript:ranIt('assign')"); return window.settled; };`},
		{"nav_replace", "location.replace of a javascript: URL", `window.go = () => { location.replace("javascript:ranIt('replace')"); return window.settled; };`},
		{"nav_window_location", "window.location assigned a javascript: URL", `window.go = () => { window.location = "javascript:ranIt('window.location')"; return window.settled; };`},
		{"nav_self_location", "self.location assigned a javascript: URL", `window.go = () => { self.location = "javascript:ranIt('self.location')"; return window.settled; };`},
		{"nav_document_location", "document.location assigned a javascript: URL", `window.go = () => { document.location = "javascript:ranIt('document.location')"; return window.settled; };`},
		{"nav_top_location", "top.location assigned a javascript: URL", `window.go = () => { top.location = "javascript:ranIt('top.location')"; return window.settled; };`},
		{"nav_alias", "a const bound to window, its location assigned", `const w = window;
window.go = () => { w.location = "javascript:ranIt('alias')"; return window.settled; };`},
		{"nav_open", "window.open of a javascript: URL", `window.go = () => { window.open("javascript:opener.ranIt('open')"); return window.settled; };`},
		{"nav_data", "a javascript: URL around data", `window.go = () => { location.href = "javascript:" + window.extra.call; return window.settled; };`},
		// document.write reached otherwise, while the page is parsed.
		{"write_alias", "document.write through a const", `const d = document;
d.write("<script>ranIt('alias')<\/script>");`},
		{"write_index", "document.write by a computed name", `document["write"]("<script>ranIt('index')<\/script>");`},
		{"write_optional", "document.write optionally chained", `document?.write?.("<script>ranIt('optional')<\/script>");`},
		{"write_args", "document.write given the script in parts", `document.write("<scr", "ipt>ranIt('args')</scr", "ipt>");`},
		{"write_global", "document.write through globalThis", `const g = globalThis;
g.document.writeln("<script>ranIt('global')<\/script>");`},
		{"write_call", "Document.prototype.write called on the document", `Document.prototype.write.call(document, "<script>ranIt('call')<\/script>");`},
		// In a classic script file, and a handler given to innerHTML in a classic script
		// written in the page (whose errors the build dropped).
		{"nav_file", "location.assign of a javascript: URL in a classic script file", `window.go = () => { location.assign("javascript:ranIt('file')"); return window.settled; };`},
		{"classic_handler", "a handler given to innerHTML in a classic script", `document.getElementById("out").innerHTML = '<img src="data:," onerror="ranIt(\'classic\')">';`},
		// Code compiled from a string reached otherwise than eval(…) and new Function(…), and a
		// timer given a string put together (atk36c): the page as written runs it, the
		// bundle's policy throws an EvalError.
		{"eval_indirect", "the global eval called indirectly", `(0, eval)("ranIt('indirect eval')");`},
		{"eval_window", "window.eval", `window.eval("ranIt('window.eval')");`},
		{"function_call", "Function called without new", `Function("ranIt('Function')")();`},
		{"timer_concat", "setTimeout given a string put together", `window.go = () => { setTimeout("ranIt('timer " + location.protocol.length + "')", 0); return window.settled; };`},
		{"timer_own", "a function of the page's named setTimeout", `function setTimeout(code) { window.extra.ran = "own " + code.length; }
setTimeout("ranIt('own')");`},
		// An attribute set by setAttributeNS, markup chosen by && (atk36c).
		{"setattrns_handler", "an inline handler set by setAttributeNS", `const b = document.createElement("button");
b.setAttributeNS(null, "onclick", "ranIt('setAttributeNS')");
document.body.append(b);
window.go = () => { b.click(); return window.settled; };`},
		{"setattrns_camel", "an attribute onClick set by setAttributeNS, which is no handler", `const b = document.createElement("button");
b.id = "b";
b.setAttributeNS(null, "onClick", "ranIt('onClick')");
document.body.append(b);`},
		{"and_handler", "markup chosen by &&", `document.getElementById("out").innerHTML = window.extra && '<img src="data:," onerror="ranIt(\'and\')">';`},
		// A var or let bound once to the page's object, written nowhere else (atk36c).
		{"write_var", "document.write through a var", `var doc = document;
doc.write("<script>ranIt('var')<\/script>");`},
		{"nav_let", "a let bound to the location, assigned a javascript: URL", `let loc = window.location;
window.go = () => { loc.href = "javascript:ranIt('let')"; return window.settled; };`},
		{"write_var_written", "a var bound to the document, then to the page's own object", `var doc = document;
doc = { write(m) { window.extra.ran = "own write " + m.length; } };
doc.write("<script>ranIt('written')<\/script>");`},
		// document.write called by Reflect.apply, and bound (atk36c).
		{"write_reflect", "document.write by Reflect.apply", `Reflect.apply(document.write, document, ["<script>ranIt('reflect')<\/script>"]);`},
		{"write_bind", "document.write bound through a const", `const w = document.write.bind(document);
w("<script>ranIt('bind')<\/script>");`},
		// An element of a document parsed apart, adopted into the page (atk36c).
		{"domparser_adopt", "a DOMParser's document's image adopted", `const doc = new DOMParser().parseFromString('<img src="data:," onerror="ranIt(\'domparser\')">', "text/html");
document.getElementById("out").append(doc.body.firstChild);`},
		{"parsehtml_adopt", "Document.parseHTMLUnsafe's image adopted", `const doc = Document.parseHTMLUnsafe('<img src="data:," onerror="ranIt(\'parseHTMLUnsafe\')">');
document.getElementById("out").append(doc.body.firstChild);`},
		{"domparser_script", "a DOMParser's document's script adopted", `const doc = new DOMParser().parseFromString("<script>ranIt('script')<\/script>", "text/html");
document.getElementById("out").append(doc.head.firstChild);`},
		// A link's href given by Object.assign (atk36c).
		{"assign_href", "Object.assign of a javascript: href to a link clicked", `const a = document.createElement("a");
Object.assign(a, { href: "javascript:ranIt('assign')" });
document.body.append(a);
window.go = () => { a.click(); return window.settled; };`},
		// A worker started from a URL the page's code makes (a blob: URL), from a data: URL
		// (atk36c).
		{"worker_blob", "a worker from a blob: URL", `window.go = () => new Promise((done) => { const w = new Worker(URL.createObjectURL(new Blob(["postMessage('worker blob')"], { type: "text/javascript" }))); w.onmessage = (e) => { window.extra.ran = e.data; done(); }; w.onerror = () => { window.extra.ran = "error"; done(); }; });`},
		{"worker_data", "a worker from a data: URL", `window.go = () => new Promise((done) => { const w = new Worker("data:text/javascript,postMessage('worker data')"); w.onmessage = (e) => { window.extra.ran = e.data; done(); }; w.onerror = () => { window.extra.ran = "error"; done(); }; });`},
		// Markup a function of the page's returns (atk36c).
		{"template_function", "a template an arrow function returns, given to innerHTML", "const img = (fn) => `<img src=\"data:,\" onerror=\"${fn}('template')\">`;\ndocument.getElementById(\"out\").innerHTML = img(\"ranIt\");"},
		// The document of a window the page opens, written (a print preview's), and a <body>
		// tag's handler written into the page (atk36c).
		{"popup_write", "a window the page opens, its document written", `window.go = () => { const w = window.open(); w.document.write("<script>opener.ranIt('popup')<\/script>"); w.document.close(); w.close(); };`},
		{"write_body_onload", "a body's load handler written by document.write", `document.write('<body onload="ranIt(\'body onload\')">');`},
		// Markup joined from an array literal (atk36c).
		{"markup_join", "markup joined from an array", `document.getElementById("out").innerHTML = ['<img src="data:,"', 'onerror="ranIt(\'join\')">'].join(" ");`},
		// import() of a data: URL (atk36c).
		{"import_data", "import() of a data: URL", `window.go = () => import("data:text/javascript,ranIt('import data')");`},
		{"adjacent_call", "Element.prototype.insertAdjacentHTML called on an element", `Element.prototype.insertAdjacentHTML.call(document.getElementById("out"), "beforeend", '<img src="data:," onerror="ranIt(\'adjacent call\')">');`},
		{"write_frame_index", "a frame's document by the window's index, written", `document.body.append(document.createElement("iframe"));
frames[0].document.write("<script>parent.ranIt('frame index')<\/script>");`},
		{"root_body_handler", "the root's innerHTML given a <body> with a handler", `document.documentElement.innerHTML = "<body onload=\"ranIt('root')\">";`},
		{"attr_node_handler", "an attribute node's handler given to an element", `const a = document.createAttribute("onerror"); a.value = "ranIt('attr node')";
const img = document.createElement("img"); img.setAttributeNode(a); img.src = "data:,"; document.getElementById("out").append(img);`},
		{"body_outer_handler", "the body's outerHTML given a <body> with a handler", `document.body.outerHTML = "<body onload=\"ranIt('body outer')\">";`},
		// fid23's gaps: the sink reached otherwise still (probes).
		{"lookup_setter", "innerHTML's setter by __lookupSetter__, called", `const out = document.getElementById("out");
out.__lookupSetter__("innerHTML").call(out, '<img src="data:," onerror="ranIt(\'lookupSetter\')">');`},
		{"lookup_setter_proto", "Object.prototype.__lookupSetter__ called on Element.prototype", `const out = document.getElementById("out");
Object.prototype.__lookupSetter__.call(Element.prototype, "innerHTML").call(out, '<img src="data:," onerror="ranIt(\'proto lookupSetter\')">');`},
		{"root_query", "the root by querySelector(\"html\"), its innerHTML given a <body> with a handler", `document.querySelector("html").innerHTML = "<body onload=\"ranIt('query')\">";`},
		{"root_children", "the root as the document's children[0]", `document.children[0].innerHTML = "<body onload=\"ranIt('children')\">";`},
		{"root_tag", "the root by getElementsByTagName(\"html\")[0]", `document.getElementsByTagName("html")[0].innerHTML = "<body onload=\"ranIt('tag')\">";`},
		{"root_scrolling", "the root as the document's scrollingElement", `document.scrollingElement.innerHTML = "<body onload=\"ranIt('scrolling')\">";`},
		{"frames_item", "frames.item(0)'s document written", `document.body.append(document.createElement("iframe"));
try { frames.item(0).document.write("<script>parent.ranIt('item')<\/script>"); } catch (e) { window.extra.ran = e.name; }`},
		{"attr_node_ns", "an attribute node by createAttributeNS(null, …)", `const a = document.createAttributeNS(null, "onerror"); a.value = "ranIt('attr ns')";
const img = document.createElement("img"); img.setAttributeNodeNS(a); img.src = "data:,"; document.getElementById("out").append(img);`},
		{"attr_node_assign", "an attribute node made in the call by Object.assign", `const img = document.createElement("img");
img.setAttributeNode(Object.assign(document.createAttribute("onerror"), { value: "ranIt('attr assign')" })); img.src = "data:,"; document.getElementById("out").append(img);`},
		{"with_href", "a javascript: URL given to href in with (location)", `window.go = () => { with (location) { href = "javascript:ranIt('with href')"; } return window.settled; };`},
		{"with_write", "write in with (document)", `with (document) write("<script>ranIt('with write')<\/script>");`},
		{"function_this", "Function('return this')() for the global object", `window.extra.ran = Function("return this")() === window ? "global" : "other";`},
		{"function_this_group", "Function('return this')() with Function in a group", `window.extra.ran = [(0, Function)("return this")() === window, (Function)("return this")() === window, f((Function)("return this")())].join(" ");
function f(g) { return g === window; }`},
		{"eval_window_group", "window.eval called indirectly", `(0, window.eval)("ranIt('window eval group')");`},
		{"root_outer", "the root's outerHTML, which throws", `try { document.documentElement.outerHTML = '<img src="data:," onerror="ranIt(\'root outer\')">'; } catch (e) { window.extra.ran = e.name; }`},
		// Markup given to a parameter of the page's own function, which gives it to innerHTML
		// (fid23b).
		{"param_handler", "markup given to a function's parameter, which sets it as innerHTML", `function setHTML(el, m) { el.innerHTML = m; }
setHTML(document.getElementById("out"), '<img src="data:," onerror="ranIt(\'param\')">');`},
		// A name spelled as a contextual keyword (atk27): the function set, its parameter
		// get, and the document through a const named from.
		{"keyword_param", "a function named set given markup in its parameter get", `function set(el, get) { el.innerHTML = get; }
set(document.getElementById("out"), '<img src="data:," onerror="ranIt(\'keyword param\')">');`},
		{"keyword_alias", "document.write through a const named from", `const from = document;
from.write("<script>ranIt('keyword alias')<\/script>");`},
		// The app's own function called otherwise than f(…) (atk27): a class's method on this,
		// by call, given to an array literal's forEach, five functions deep.
		{"param_class_this", "a class's method given markup on this", `class View { put(el, m) { el.innerHTML = m; } show() { this.put(document.getElementById("out"), '<img src="data:," onerror="ranIt(\'class\')">'); } }
new View().show();`},
		{"param_call", "a function given markup by call", `function put(el, m) { el.innerHTML = m; }
put.call(null, document.getElementById("out"), '<img src="data:," onerror="ranIt(\'call\')">');`},
		{"param_bind", "a function bound to its element, given markup", `function put(el, m) { el.innerHTML = m; }
const show = put.bind(null, document.getElementById("out"));
show('<img src="data:," onerror="ranIt(\'bind\')">');`},
		{"param_foreach", "a function given to forEach, markup its element", `function render(m) { document.getElementById("out").innerHTML += m; }
["<b>b</b>", '<img src="data:," onerror="ranIt(\'forEach\')">'].forEach(render);`},
		{"param_deep", "markup passed through five functions", `function a(m) { document.getElementById("out").innerHTML = m; }
function b(m) { a(m); } function c(m) { b(m); } function d(m) { c(m); } function e(m) { d(m); }
e('<img src="data:," onerror="ranIt(\'deep\')">');`},
		// The parameter rule's open breaks (p23): a destructured parameter, a class's
		// setter, a subclass's this.put(…) of its parent's method, a function given to
		// Promise.resolve(m).then, an attribute's name given to a parameter.
		{"param_destructured", "markup given to a destructured parameter", `function put({ el, html }) { el.innerHTML = html; }
put({ el: document.getElementById("out"), html: '<img src="data:," onerror="ranIt(\'destructured\')">' });`},
		{"param_setter", "markup given to a class's setter", `class View { set html(v) { document.getElementById("out").innerHTML = v; } }
const view = new View();
view.html = '<img src="data:," onerror="ranIt(\'setter\')">';`},
		{"param_subclass", "markup given to the parent's method on a subclass's this", `class A { put(m) { document.getElementById("out").innerHTML = m; } }
class B extends A { show() { this.put('<img src="data:," onerror="ranIt(\'subclass\')">'); } }
new B().show();`},
		{"param_then", "a function given to Promise.resolve(markup).then", `function put(m) { document.getElementById("out").innerHTML = m; }
Promise.resolve('<img src="data:," onerror="ranIt(\'then\')">').then(put);`},
		{"param_attr_name", "an attribute's name given to a parameter", `function set(el, name, v) { el.setAttribute(name, v); }
set(document.getElementById("out"), "onclick", "ranIt('attr name')");
document.getElementById("out").click();`},
		// The global object Function("return this")() makes, its document written (p23).
		{"function_this_write", "document.write of Function('return this')()'s document", `Function("return this")().document.write("<script>ranIt('function this')<\/script>");`},
		// What is not the page's document or location: the same as written and as built.
		{"write_destructured", "write taken off the document", `const { write } = document;
try { write("<script>ranIt('destructured')<\/script>"); } catch (e) { window.extra.ran = e.name + ": " + e.message; }`},
		{"write_shadowed", "a parameter named document", `function put(document) { document.write("<script>ranIt('shadowed')<\/script>"); }
put({ write(m) { window.extra.ran = "own write " + m.length; } });`},
		{"nav_shadowed", "a parameter named location", `function nav(location) { location.assign("javascript:ranIt('shadowed')"); }
nav({ assign(u) { window.extra.ran = "own assign " + u.length; } });`},
		// Data given to a sink holds nothing the page's code wrote: the same.
		{"markup_data", "markup of data", `document.getElementById("out").innerHTML = "<b>" + window.extra.call.length + "</b>";`},
	}
	var out []extraFile
	for _, p := range pages {
		var b strings.Builder
		b.WriteString("<!doctype html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>" + p.title + "</title>\n</head>\n<body>\n<p>" + p.title + ".</p>\n<p id=\"out\"></p>\n")
		b.WriteString(`<script>
window.extra = { ran: "not yet", call: "ranIt('data')" };
window.settled = new Promise((done) => {
  window.ranIt = (how) => { window.extra.ran = how; done(); };
  document.addEventListener("securitypolicyviolation", () => done());
});
</script>
`)
		if files[p.name] {
			b.WriteString("<script src=\"./" + p.name + ".js\"></script>\n")
			out = append(out, extraFile{p.name + ".js", []byte(p.code + "\n")})
		} else {
			b.WriteString("<script>\n" + p.code + "\n</script>\n")
		}
		b.WriteString("<script type=\"module\" src=\"./fingerprint.js\"></script>\n</body>\n</html>\n")
		out = append(out, extraFile{p.name + ".html", []byte(b.String())})
	}
	return out
}
