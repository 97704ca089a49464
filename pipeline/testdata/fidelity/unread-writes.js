// A binding a static block writes and only a function the page does not import reads (the
// MCP SDK's setNegotiatedProtocolVersion): the built page has the write, and the function it
// held, taken out (unread.go). verbose, a flag nothing writes, has the module minified again.
export let verbose = false;
export function setVerbose(v) {
  verbose = v;
}
let setVersion;
export class Protocol {
  version = "none";
  static {
    setVersion = (p, v) => {
      p.version = "set to " + v;
    };
  }
  describe() {
    return verbose ? "verbose " + this.version : this.version;
  }
}
export function negotiate(p, v) {
  setVersion(p, v);
}
