// Probes for eval as zod 4 does, and catches the refusal: a warning, not a failure. The
// Function constructor is reached through a prototype, as libraries do, so the build does not
// see it.
import { registerTool } from "@miniapp/sdk";

const Fn = Object.getPrototypeOf(function () {}).constructor as FunctionConstructor;
let jit = false;
try {
  jit = new Fn("return true")();
} catch {
  jit = false;
}
document.getElementById("root")!.textContent = jit ? "eval allowed" : "eval refused, caught";
registerTool({ name: "probe", description: "Says whether eval ran.", execute: () => (jit ? "eval" : "no eval") });
