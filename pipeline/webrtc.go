package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// A page that creates a WebRTC peer connection sends STUN over UDP to any address, and has
// names resolved, and no policy directive stops it (Chromium rejects webrtc 'block'). The build
// refuses code that names a peer connection unless the manifest opts in (webrtc = true), which
// the registry entry shows hosts.

// peerNames are the constructors of peer connections, the standard one and the prefixed ones
// older code reaches for; any name holding "PeerConnection" counts.
const peerName = "PeerConnection"

// usesPeerConnection reports the first name or string in code that holds peerName: an
// identifier, a property (window.RTCPeerConnection), a string (window["RTCPeerConnection"]), a
// template's text, or a worker's code held in a string. Code that does not parse is searched
// as text: the build errs on the side of refusing.
func usesPeerConnection(code string) (string, bool) {
	if !strings.Contains(code, peerName) {
		return "", false
	}
	ast, err := js.Parse(parse.NewInputString(code), js.Options{})
	if err != nil {
		return wordAround(code, strings.Index(code, peerName)), true
	}
	v := &peerVisitor{}
	js.Walk(v, ast)
	return v.found, v.found != ""
}

type peerVisitor struct{ found string }

func (v *peerVisitor) Enter(n js.INode) js.IVisitor {
	if v.found != "" {
		return nil
	}
	var data []byte
	switch n := n.(type) {
	case *js.Var:
		data = n.Data
	case *js.LiteralExpr:
		data = n.Data
	case *js.TemplateExpr:
		for _, p := range n.List {
			v.check(p.Value)
		}
		data = n.Tail
	case *js.PropertyName:
		data = n.Literal.Data
	case *js.DotExpr:
		// The property's name (window.RTCPeerConnection, a?.RTCPeerConnection), a value
		// Walk may not visit.
		switch y := n.Y.(type) {
		case js.LiteralExpr:
			v.check(y.Data)
		case *js.LiteralExpr:
			v.check(y.Data)
		}
	}
	v.check(data)
	return v
}

func (v *peerVisitor) check(data []byte) {
	if v.found == "" && bytes.Contains(data, []byte(peerName)) {
		s := string(data)
		v.found = wordAround(s, strings.Index(s, peerName))
	}
}

func (v *peerVisitor) Exit(js.INode) {}

// wordAround returns the name that holds s[i:], for the message: the run of identifier
// characters around it.
func wordAround(s string, i int) string {
	isWord := func(c byte) bool {
		return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	start, end := i, i
	for start > 0 && isWord(s[start-1]) {
		start--
	}
	for end < len(s) && isWord(s[end]) {
		end++
	}
	return s[start:end]
}

// refuseWebRTC returns an error for each script of the page that names a peer connection,
// when the manifest does not allow WebRTC, placed in the first input file of the app that
// writes the name (its own code or a package's), else in the page.
func (b *bundler) refuseWebRTC(scripts []string, page string) diag.List {
	if b.m.WebRTC {
		return nil
	}
	for _, code := range scripts {
		name, ok := usesPeerConnection(code)
		if !ok {
			continue
		}
		msg := b.m.Message(diag.Error, "", fmt.Sprintf("the page's code creates WebRTC connections (%s), which reach any address over UDP whatever the bundle's policy says", name),
			"remove the code that uses it (a package may: see the file named), or, if the app must talk peer to peer, set "+b.m.Setting("webrtc", true)+": hosts see it in the registry entry")
		msg.File, msg.Path = page, ""
		if file, off := b.inputNaming(name); file != "" {
			src, _ := os.ReadFile(filepath.Join(b.root, filepath.FromSlash(file)))
			msg.File = b.display(file)
			msg.PlaceIn(diag.NewLines(src), off, len(name))
		}
		return diag.List{msg}
	}
	return nil
}

// inputNaming returns the first input of the build, in name order, whose text holds name, and
// the offset of it there.
func (b *bundler) inputNaming(name string) (string, int) {
	files := make([]string, 0, len(b.inputs))
	for f := range b.inputs {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(b.root, filepath.FromSlash(f)))
		if err != nil {
			continue
		}
		if i := bytes.Index(src, []byte(name)); i >= 0 {
			return f, i
		}
	}
	return "", 0
}
