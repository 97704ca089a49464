package offline

// The notes of findings, one per kind of finding: what to do about it. A finding's text says
// what loads; its note says how to make the page load nothing. Each kind's note is here once,
// so that another wording (bundle check --single-file) has one place to go.
const (
	noteInline          = "inline it (bundle build does this for files inside the app) or use a data: URL; a bundle has no files beside it and no network"
	noteRemote          = "download it into the app folder and name it by a relative path (bundle build inlines files inside the app), or remove it; a bundle has no network"
	noteLink            = "open links with the SDK's openLink, and name the host in the manifest's linkDomains (bundle check --link-domains HOST)"
	noteLinkRelative    = "link to a fragment (#section) inside the page, or open a full https: URL with the SDK's openLink"
	noteForm            = "a bundle cannot submit a form anywhere: handle the submit event in a script and call a tool or the SDK"
	noteImport          = "bundle the module into the app (bundle build resolves imports from the app and node_modules) instead of loading it at run time"
	notePing            = "remove it: it reports to a server (a click, or an attribution), and a bundle has none"
	noteRefresh         = "remove it: a bundle never navigates itself; open links with the SDK's openLink"
	noteValuesSplit     = "the list is split at every ';', a data: URL's too (\";base64,\" leaves a relative URL): write the data: URL without ';', percent-encoded, or set the href from a script"
	noteAnimation       = "bundle build does not inline what an animation sets: import the file in a script and set the href there, or write a data: URL"
	noteJavascriptFrame = "write the frame's markup in srcdoc, which the check reads, or load about:blank and fill the frame from a script"
	noteBase            = "remove <base>: every URL in a bundle is inline"
	notePreconnect      = "remove it: a bundle connects to nothing"
	noteFrameRelative   = "a bundle has no pages beside it: put the frame's markup in srcdoc, or show it in the page itself"
	noteManifest        = "remove it: browsers dropped the application cache it names, and a bundle, one file, needs none"
	notePlugin          = "a bundle's policy allows no plugin content (object-src 'none'): show an image with <img src>, a page with <iframe srcdoc>, or remove it"
	noteSpeculation     = "remove the speculation rules: a bundle has nothing to prefetch"
	noteWebBundle       = "remove it: bundle the resources into the app (bundle build inlines files and modules) instead of loading a web bundle"
	noteNested          = "bundle build does not inline what a srcdoc or data: document names: write it there as a data: URL, or put the content in the page itself"
	noteDeep            = "flatten the nesting; it is refused because it cannot be checked"
	noteDataType        = "use text/html or SVG, or put the markup in srcdoc; a document the check cannot read is refused"
	noteScriptSyntax    = "fix the syntax error; a script whose imports cannot be read is refused, since it may load something"
	noteLimit           = "write the markup with its formatting elements closed (</b>, </i>, </a>) where they end; a page whose tree cannot be followed is refused"
	noteEncoding        = `; write the page in UTF-8 and declare <meta charset="utf-8"> first in <head>`
	noteNestedEncoding  = "write the resource in UTF-8 with no byte-order mark or charset that says otherwise; one a browser may read in another encoding is checked in each, and refused if any loads"
	noteXMLUnreadable   = "a document the check cannot read is refused, since it may load something: write the SVG or XHTML without a DTD, or with the markup itself instead of entities"
	noteXSLT            = "remove the xml-stylesheet: a browser runs XSLT, whose output the check cannot read; style the document with CSS in a <style> instead"
	noteCSSAttr         = "set the URL in the stylesheet (the build inlines it) or from a script; a URL read from an attribute by attr() cannot be checked"
	noteImportMapApp    = "a bundle resolves imports when it is built and has no file beside it: import the module by its path, or map the name with the manifest's alias under [build]"
	noteImportMapRemote = "install the package (npm install) or download the module into the app folder, import it by its name or path, and remove the import map: a bundle has no network"
)
