window.extra.deferred = "à la carte";
