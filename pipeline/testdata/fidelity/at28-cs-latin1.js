window.extra.latin1 = "café";
