window.extra.upper = "naïve";
