// A string where the page requires a TrustedHTML: refused, as the page's policy says.
try {
  document.getElementById("out").innerHTML = "<b>raw</b>";
  window.extra.log.push("b assigned a string");
} catch (e) {
  window.extra.log.push("b " + e.name);
}
try {
  trustedTypes.createPolicy("other", { createHTML: (s) => s });
  window.extra.log.push("b made another policy");
} catch (e) {
  window.extra.log.push("b " + e.name);
}
