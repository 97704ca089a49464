// import.meta?.url, read by an optional chain.
window.extra = { ownURL: import.meta?.url.endsWith("atk-metaopt.js") };
