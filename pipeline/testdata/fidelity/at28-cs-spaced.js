window.extra.spaced = "naïve";
