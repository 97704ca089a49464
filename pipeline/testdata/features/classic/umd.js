// A UMD library, as many are published: a global where there is no module system.
(function (root, factory) {
  if (typeof define === "function" && define.amd) define([], factory);
  else if (typeof module === "object" && module.exports) module.exports = factory();
  else root.Greeter = factory();
})(typeof self !== "undefined" ? self : this, function () {
  return { greet: function (name) { return "Hello, " + name; } };
});
