// The page's own policy, the one its trusted-types directive names.
const policy = trustedTypes.createPolicy("app", { createHTML: (s) => s.replace(/</g, "&lt;") });
document.getElementById("out").insertAdjacentHTML("beforeend", policy.createHTML(" <b>escaped</b>"));
window.extra.log.push("a " + policy.name);
