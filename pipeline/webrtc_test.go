package pipeline

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestWebRTC refuses code that names a peer connection, which sends STUN over UDP and
// resolves names whatever the policy says, unless the manifest opts in; and builds look-alikes.
func TestWebRTC(t *testing.T) {
	const manifest = "id = \"w\"\nname = \"W\"\ndescription = \"WebRTC.\"\nentry = \"main.ts\"\n"
	rows := []struct {
		name  string
		files map[string]string
		want  string // "" builds; else a substring of the error at its place
	}{
		{"constructor", map[string]string{"main.ts": "const pc = new RTCPeerConnection();\npc.createDataChannel(\"x\");\n"}, "main.ts:1:16"},
		{"prefixed_property", map[string]string{"main.ts": "const C = (window as any).webkitRTCPeerConnection;\nconsole.log(new C());\n"}, "webkitRTCPeerConnection"},
		{"computed_string", map[string]string{"main.ts": "const w: any = window;\nconsole.log(new w[\"RTC\" + \"PeerConnection\"]());\n"}, "PeerConnection"},
		{"in_a_package", map[string]string{"main.ts": "import { connect } from \"peerlib\";\nconnect();\n",
			"node_modules/peerlib/package.json": `{"name":"peerlib","main":"index.js"}`,
			"node_modules/peerlib/index.js":     "export function connect() { return new RTCPeerConnection({ iceServers: [] }); }\n"}, "node_modules/peerlib/index.js:1:40"},
		{"in_a_worker", map[string]string{"main.ts": "new Worker(new URL(\"./w.ts\", import.meta.url), { type: \"module\" });\n",
			"w.ts": "const pc = new RTCPeerConnection();\nconsole.log(pc);\n"}, "RTCPeerConnection"},
		{"look_alike", map[string]string{"main.ts": "// RTCPeerConnection is not used here\nconst PeerConn = 1;\nconsole.log(PeerConn, \"peer connection\");\n"}, ""},
		{"opted_in", map[string]string{"miniapp.toml": manifest + "webrtc = true\n", "main.ts": "console.log(new RTCPeerConnection());\n"}, ""},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "app")
			files := map[string]string{"miniapp.toml": manifest}
			for k, v := range row.files {
				files[k] = v
			}
			writeFiles(t, dir, files)
			if row.want == "" {
				res := built(t, dir)
				if res.Entry.WebRTC != strings.Contains(files["miniapp.toml"], "webrtc = true") {
					t.Errorf("entry webrtc = %v", res.Entry.WebRTC)
				}
				return
			}
			errs := refusedErrors(t, dir)
			if len(errs) != 1 {
				t.Fatalf("%d errors: %v", len(errs), errs)
			}
			got := errs[0].String()
			if !strings.Contains(got, row.want) || !strings.Contains(errs[0].Note, "webrtc = true") {
				t.Errorf("error %s (%s), want %q", got, errs[0].Note, row.want)
			}
		})
	}
}
