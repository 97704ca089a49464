window.extra.unknown = "ran";
