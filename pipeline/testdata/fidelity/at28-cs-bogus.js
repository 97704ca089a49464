window.extra.bogus = "café";
