// A prebuilt package's namespace objects as Rolldown's runtime makes them (the MCP SDK's
// schemas): getters of bindings written once, which the built page writes as values
// (namespacevalues.go), and a getter of a let written later, which it keeps.
var __defProp = Object.defineProperty;
var __export = (all, symbols) => {
  let target = {};
  for (var name in all) __defProp(target, name, { get: all[name], enumerable: true });
  if (symbols) __defProp(target, Symbol.toStringTag, { value: "Module" });
  return target;
};
export let tracing = false;
export function setTracing(v) {
  tracing = v;
}
const AnnotationsSchema = { kind: "annotations" };
const AudioContentSchema = { kind: "audio" };
function TaskSchema() {
  return tracing ? "traced task" : "task";
}
class TextContentSchema {
  static kind = "text";
}
let count = 0;
export function bump() {
  count++;
}
export var schemas = __export({
  AnnotationsSchema: () => AnnotationsSchema,
  AudioContentSchema: () => AudioContentSchema,
  TaskSchema: () => TaskSchema,
  TextContentSchema: () => TextContentSchema,
});
export var live = __export({ count: () => count });
