window.extra.sjis = "‚ ";
