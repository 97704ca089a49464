// A classic worker script (sloppy code): var arguments without a value holds the function's
// arguments object.
function count(first, second) {
  var arguments;
  return [arguments.length, first, second].join(",");
}
function withDefaults(first, second = 1) {
  var arguments;
  return [arguments.length, first, second].join(",");
}
postMessage(count(1, 2, 3) + ";" + withDefaults(4, 5, 6));
