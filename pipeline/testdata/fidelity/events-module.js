note("module file");
await null;
note("module file after await");
