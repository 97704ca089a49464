window.extra.upper = "ran";
