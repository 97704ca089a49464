// No policy may be made, by any name, and a string is refused where a TrustedHTML is wanted.
for (const name of ["app", "miniapp-deferred", "default"]) {
  try {
    trustedTypes.createPolicy(name, { createHTML: (s) => s });
    window.extra.log.push("made " + name);
  } catch (e) {
    window.extra.log.push(name + " " + e.name);
  }
}
try {
  document.getElementById("out").innerHTML = "<b>raw</b>";
  window.extra.log.push("assigned a string");
} catch (e) {
  window.extra.log.push("string " + e.name);
}
