// Throws at load, after the SDK has connected: render must report the uncaught exception.
document.getElementById("root")!.textContent = "about to throw";
throw new Error("boom at load");
