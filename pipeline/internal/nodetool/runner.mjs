// The Node side of nodetool: runs the app's own CSS tools (PostCSS and its plugins, Tailwind
// CSS v4's compiler, Sass, Less, Stylus), resolved from the app's node_modules, never installed or fetched.
// Requests arrive as JSON lines on file descriptor 3, after a first line that is the key;
// answers leave as JSON lines on file descriptor 4 (pipes of the runner's own, which the tools'
// fs calls are refused: what a tool writes to stdout, a compiler's console.log or a
// process.stdout.write with no new line, is no answer and never joins one; Node's input is
// /dev/null), each after the key (the first, {ready: true}, once the runner is set up; the key
// keeps out a line the app's code writes on file descriptor 4 itself):
//   {id, tool: "postcss", file, css, config}  → {id, css}
//   {id, tool: "tailwind", file, css, base, ignore: [dir…]} → {id, css}
//   {id, tool: "sass" | "less" | "stylus", file, options} → {id, css}
//   {id, tool: "viteconfig", file, css: the config bundled} → {id, css: the config as JSON}
//   {id, tool: "scopednames", file, css: the config bundled, options: {filename, source, names}}
//     → {id, css: the names its css.modules.generateScopedName gives, as a JSON array}
// A failure answers {id, error: {message, file?, line?, column?, missing?, outside?}};
// `missing` names an npm package the app has not installed, `outside` a file outside the root
// that a tool was refused.
//
// Confinement (the kernel's fence is around this process where there is one; this is what
// holds where there is none, and what gives a tool a clear error where there is): packages
// load only from node_modules folders inside MINIAPP_ROOT (CommonJS's lookup paths are cut at
// the root, ES modules are refused outside it by a resolve hook), and the fs functions the
// tools read and write with refuse a path outside the root (reads) or the temporary folder
// (writes), links followed.
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import dgram from "node:dgram";
import dns from "node:dns";
import fs from "node:fs";
import { Module, createRequire, register, syncBuiltinESMExports } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { Readable } from "node:stream";
import workerThreads from "node:worker_threads";
import { fileURLToPath, pathToFileURL } from "node:url";

// The language's and Node's functions the runner's own guarantees rest on, taken before any
// app code runs, as Node's own code takes its primordials: a config or a plugin may replace
// String.prototype.startsWith, Array.prototype.includes, Reflect.apply, JSON.stringify,
// Function.prototype.call, process.stdout.write, AsyncLocalStorage's methods or the global
// Error, and the check of who calls module.register, the answer of a request and the failure
// of the request whose work threw must not change with them. uncurryThis(f)(x, ...args) is
// f.call(x, ...args) through a bound function, which looks nothing up when called.
const uncurryThis = Function.prototype.bind.bind(Function.prototype.call);
const NativeError = Error;
const ReflectApply = Reflect.apply;
const ArrayIsArray = Array.isArray;
const ObjectGetPrototypeOf = Object.getPrototypeOf;
const ObjectGetOwnPropertyNames = Object.getOwnPropertyNames;
const ObjectDefineProperty = Object.defineProperty;
const ObjectHasOwn = Object.hasOwn;
const JSONStringify = JSON.stringify;
const JSONParse = JSON.parse;
const StringPrototypeStartsWith = uncurryThis(String.prototype.startsWith);
const StringPrototypeIncludes = uncurryThis(String.prototype.includes);
const StringPrototypeIndexOf = uncurryThis(String.prototype.indexOf);
const StringPrototypeSlice = uncurryThis(String.prototype.slice);
const StatsIsSymbolicLink = uncurryThis(fs.Stats.prototype.isSymbolicLink);
// What places an error (stackPlace, configError, failure) reads its stack and message with,
// after the app's code ran: a config that replaced RegExp.prototype.exec, String.prototype.split
// or trim, the array iterator, String or Object.assign before it threw had its error said with
// no line (or no message).
const StringCtor = String;
const RegExpPrototypeExec = uncurryThis(RegExp.prototype.exec);
const StringPrototypeTrim = uncurryThis(String.prototype.trim);
// put sets obj[key] as a property of its own: an assignment would call a setter the app put
// on a prototype (Error.prototype's line).
const put = (obj, key, value) => ObjectDefineProperty(obj, key, { __proto__: null, value, writable: true, enumerable: true, configurable: true });
// append adds v at the end of list as a property of its own: an assignment would call a
// setter the app put on Array.prototype for that index.
const append = (list, v) => ObjectDefineProperty(list, list.length, { __proto__: null, value: v, writable: true, enumerable: true, configurable: true });
// splitOn is s split at each sep (a string), as String.prototype.split gives it, without the
// Symbol.split method the app may put on String.prototype.
function splitOn(s, sep) {
  const out = [];
  for (let i = 0; ;) {
    const j = StringPrototypeIndexOf(s, sep, i);
    if (j < 0) return append(out, StringPrototypeSlice(s, i));
    append(out, StringPrototypeSlice(s, i, j));
    i = j + sep.length;
  }
}
const pathResolve = path.resolve, pathRelative = path.relative, pathIsAbsolute = path.isAbsolute, pathJoin = path.join;
const pathDirname = path.dirname, pathParse = path.parse, pathSep = path.sep;
const fileURLToPathRaw = fileURLToPath;
const stderrWrite = uncurryThis(process.stderr.write), stderr = process.stderr;
const exit = process.reallyExit ? ((f) => (code) => ReflectApply(f, process, [code]))(process.reallyExit) : process.exit;
const setCapture = process.setUncaughtExceptionCaptureCallback;

const cwd = process.cwd();
// Error.captureStackTrace and a call site's methods as the language gives them, taken before
// any app code runs: the check of who calls module.register reads the stack by them, and a
// config that replaced them would pass as a package's module loading.
const stackOf = Error.captureStackTrace;
const ReflectGetOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
const ReflectDeleteProperty = Reflect.deleteProperty;
// sitesOf is the stack under fn (the call sites, the limit frames nearest), taken with the
// runner's own Error.prepareStackTrace and Error.stackTraceLimit, and the global Error that
// Node's formatter asks for the first (globalThis.Error), each set for the capture and put
// back after it: what the app's code set them to (a limit of 0 or 2, a function that forges
// sites, an Error of its own) does not change what it reads. null where they cannot be set
// (the app made them unwritable).
function sitesOf(fn, limit) {
  const held = { __proto__: null };
  const props = [[NativeError, "prepareStackTrace", (_, sites) => sites], [NativeError, "stackTraceLimit", limit], [globalThis, "Error", NativeError]];
  const saved = [];
  let sites;
  try {
    // Indexes, not iterators: the app may have replaced Array.prototype[Symbol.iterator].
    for (let i = 0; i < props.length; i++) {
      const obj = props[i][0], name = props[i][1];
      append(saved, [obj, name, ReflectGetOwnPropertyDescriptor(obj, name)]);
      ObjectDefineProperty(obj, name, { __proto__: null, value: props[i][2], writable: true, enumerable: false, configurable: true });
    }
    stackOf(held, fn);
    sites = held.stack; // formatted as it is first read: now, by the function set above
  } catch {
    return null;
  } finally {
    for (let i = saved.length - 1; i >= 0; i--) {
      const obj = saved[i][0], name = saved[i][1], d = saved[i][2];
      try {
        if (d === undefined) ReflectDeleteProperty(obj, name);
        else ObjectDefineProperty(obj, name, d);
      } catch {}
    }
  }
  return ArrayIsArray(sites) ? sites : null;
}
// site is a call site's methods, taken from the prototype V8 gives call sites.
const site = (() => {
  const proto = ObjectGetPrototypeOf(sitesOf(sitesOf, 1)[0]);
  const method = (name) => (typeof proto[name] === "function" ? uncurryThis(proto[name]) : () => undefined);
  return { file: method("getFileName"), name: method("getFunctionName"), hash: method("getScriptHash"), line: method("getEnclosingLineNumber"), column: method("getEnclosingColumnNumber") };
})();
const siteFile = (s) => site.file(s);
// nodeLoader knows the frames of Node's module loader that run a module's code by their file,
// their function's name and the hash V8 gives their script's source (which a vm script or a
// function given a node:internal name has not): the CommonJS loader's Module._compile, taken
// from a module the runner compiles as it starts, and the ES module job's, from the runner's
// own stack (Node evaluates it as a module). is(s, ref) says whether the call site s is ref's
// (its name too, where ref has one).
const nodeLoader = (function loaderOf() {
  const ref = (s) => ({ __proto__: null, file: site.file(s), name: site.name(s), hash: site.hash(s) });
  const job = ref(sitesOf(loaderOf, 2)[1]);
  job.name = undefined; // run, or runSync for a module require() loads
  let compile = null;
  const m = new Module("bundle-runner");
  m.exports = { __proto__: null, probe: function probe() { compile = ref(sitesOf(probe, 2)[1]); } };
  m._compile("module.exports.probe();", "bundle-runner.js");
  return {
    job, compile,
    is: (s, r) => s !== undefined && site.file(s) === r.file && site.hash(s) === r.hash && (r.name === undefined || site.name(s) === r.name),
  };
})();
const realpath = fs.realpathSync.native;
// The runner's own: the answers' pipe written, and Node ended, with the functions the language
// gives, before any app code runs (process.exit is a tool's to call, below).
const writeRaw = fs.writeSync, bufferFrom = Buffer.from.bind(Buffer);
// The fs functions resolveIn looks with, before the tools' are guarded.
const lstatRaw = fs.lstatSync;
const readlinkRaw = fs.readlinkSync;
const root = realpath(process.env.MINIAPP_ROOT || cwd);
const tmp = process.env.TMPDIR ? realpath(process.env.TMPDIR) : null;

function within(p, dir) {
  const rel = pathRelative(dir, p);
  return rel === "" || (!StringPrototypeStartsWith(rel, "..") && !pathIsAbsolute(rel));
}

// OUTSIDE is resolveIn's answer for a path that leaves its folder.
const OUTSIDE = Symbol("outside");

// resolveIn resolves p's links as the kernel does, component by component, looking at nothing
// outside dir (real already): OUTSIDE once the path, or a link's target, leaves dir, whether or
// not anything is there; null when it is inside but missing; else its real path. The Go side's
// rootpath.Resolve, the same rule: what the tools are told never depends on what is outside.
function resolveIn(p, dir) {
  const abs = pathResolve(p);
  let cur = pathParse(abs).root; // "/", or a drive's on Windows
  // The components left, last first (rest[rest.length - 1] is the next).
  const rest = [];
  const push = (s) => {
    const parts = splitOn(pathSep === "/" ? s : s.replaceAll("\\", "/"), "/");
    for (let i = parts.length - 1; i >= 0; i--) append(rest, parts[i]);
  };
  push(StringPrototypeSlice(abs, cur.length));
  let links = 0;
  while (rest.length > 0) {
    const c = rest[rest.length - 1];
    rest.length--;
    if (c === "" || c === ".") continue;
    if (c === "..") {
      cur = pathDirname(cur);
      continue;
    }
    const next = pathJoin(cur, c);
    if (within(dir, next)) {
      cur = next; // dir, or a folder above it: no links (dir is real)
      continue;
    }
    if (!within(next, dir)) return OUTSIDE;
    let st;
    try {
      st = lstatRaw(next);
    } catch {
      return null;
    }
    if (!StatsIsSymbolicLink(st)) {
      cur = next;
      continue;
    }
    if (++links > 40) return null;
    let target = readlinkRaw(next);
    if (pathIsAbsolute(target)) {
      cur = pathParse(target).root;
      target = StringPrototypeSlice(target, cur.length);
    }
    push(target);
  }
  return within(cur, dir) ? cur : OUTSIDE;
}

// inRoot reports whether p is inside the root (or missing there), by resolveIn.
const inRoot = (p) => resolveIn(p, root) !== OUTSIDE;
const readable = (p) => inRoot(p) || (tmp !== null && resolveIn(p, tmp) !== OUTSIDE);
const writable = (p) => tmp !== null && resolveIn(p, tmp) !== OUTSIDE;

// refused is the error for a path a tool may not open: EACCES, as the kernel's fence says it.
// Each is kept for the request whose work made it (refusalsOf), so that one a tool catches and
// goes on without (Less gives what a @plugin's read was refused as an empty value) can still
// fail it.
function refused(p, verb) {
  // A write is let only into the temporary folder (os.tmpdir()), not the root.
  const e = new NativeError(verb === "write" ? `${p} is outside the folder bundle lets the CSS tools write (their temporary folder, os.tmpdir())` : `${p} is outside the folder bundle lets the CSS tools ${verb} (${root})`);
  e.code = "EACCES";
  e.outside = pathResolve(p);
  e.refusal = { by: "checks", what: verb === "write" ? "write" : "read" };
  const list = refusalsOf[requestOf()];
  if (list !== undefined) append(list, e);
  return e;
}
// refusalsOf holds, by request id, the refusals made while a request that watches for them
// (less) ran; requestOf is the request whose work runs (the async context's: answering).
const refusalsOf = { __proto__: null };
let requestOf = () => undefined;

// pathOf is the path Node's fs takes from a path argument, by Node's own rules: a string; an
// object Node takes for a URL (internal/url's isURL: an href and a protocol, no auth or path,
// whatever its class) as fileURLToPath reads it; a Buffer's or another Uint8Array's bytes
// (told by the typed array's own tag, not Buffer.isBuffer, which the app may replace); else
// null (a file descriptor, or what Node refuses).
const TypedArrayTag = uncurryThis(Reflect.getOwnPropertyDescriptor(ObjectGetPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get);
const utf8 = new TextDecoder(), decode = uncurryThis(TextDecoder.prototype.decode);
function pathOf(a) {
  if (typeof a === "string") return a;
  if (a === null || typeof a !== "object") return null;
  if (TypedArrayTag(a) === "Uint8Array") return decode(utf8, a);
  if (Boolean(a.href && a.protocol && a.auth === undefined && a.path === undefined)) return fileURLToPathRaw(a);
  return null;
}
// pathAt is pathOf(args[i]), put in args[i] in place of what it was read from: Node then
// opens the path that was checked (an object's getters may answer otherwise a second time).
function pathAt(args, i) {
  const p = pathOf(args[i]);
  if (p !== null && typeof args[i] !== "string") args[i] = p;
  return p;
}

// writeFlag: whether open's flags may write (a string or a number, as Node reads them; any
// other value, which Node refuses, counts as one).
const writeFlag = (flags) =>
  flags == null ? false
  : typeof flags === "number" ? (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR | fs.constants.O_CREAT)) !== 0
  : typeof flags !== "string" || StringPrototypeIncludes(flags, "w") || StringPrototypeIncludes(flags, "a") || StringPrototypeIncludes(flags, "+");

// guard wraps the functions names of obj so that each checks its path arguments (the first
// paths of them, made strings: pathAt) before it runs.
function guard(obj, names, check, paths = 1) {
  for (const name of names) {
    const f = obj[name];
    if (typeof f !== "function") continue;
    obj[name] = function (...args) {
      for (let i = 0; i < paths; i++) pathAt(args, i);
      check(name, args);
      return ReflectApply(f, this, args);
    };
  }
}

for (const api of [fs, fs.promises]) {
  guard(api, ["readFile", "readFileSync", "readdir", "readdirSync", "opendir", "opendirSync", "createReadStream", "openAsBlob", "watch", "watchFile"], (name, args) => {
    const p = pathOf(args[0]);
    if (p !== null && !readable(p)) throw refused(p, "read");
  });
  guard(api, ["open", "openSync"], (name, args) => {
    const p = pathOf(args[0]);
    if (p === null) return;
    if (writeFlag(args[1]) ? !writable(p) : !readable(p)) throw refused(p, writeFlag(args[1]) ? "write" : "read");
  });
  guard(api, ["writeFile", "writeFileSync", "appendFile", "appendFileSync", "createWriteStream", "mkdir", "mkdirSync", "mkdtemp", "mkdtempSync",
    "rm", "rmSync", "rmdir", "rmdirSync", "unlink", "unlinkSync", "truncate", "truncateSync", "chmod", "chmodSync", "utimes", "utimesSync"], (name, args) => {
    const p = pathOf(args[0]);
    if (p !== null && !writable(p)) throw refused(p, "write");
  });
  guard(api, ["rename", "renameSync", "copyFile", "copyFileSync", "cp", "cpSync", "link", "linkSync", "symlink", "symlinkSync"], (name, args) => {
    const [from, to] = [pathOf(args[0]), pathOf(args[1])];
    if (from !== null && !name.startsWith("symlink") && !(name.startsWith("rename") || name.startsWith("link") ? writable(from) : readable(from))) throw refused(from, "read");
    if (to !== null && !writable(to)) throw refused(to, "write");
  }, 2);
}
// The runner's own descriptors: its requests come on 3 and its answers leave on 4, pipes the Go
// side gives it (Node's input, 0, is /dev/null: a config that read it with fs.readSync took the
// next request's line, which then waited for ever; readFileSync(0) failed with EAGAIN). A tool's
// fs call on either is refused as one on a descriptor that is not open (EBADF), so that no
// tool takes a request or writes on the answers' pipe (where a line without the key is no
// answer anyway). Code written to harm can reach them around fs (a net.Socket of its own on
// the descriptor): it can stop its own build, no other.
const REQUESTS = 3, ANSWERS = 4;
{
  const badFd = (syscall) => {
    const e = new NativeError(`EBADF: bad file descriptor, ${syscall}`);
    put(e, "code", "EBADF");
    put(e, "errno", -9);
    put(e, "syscall", syscall);
    return e;
  };
  const ReflectOwnKeys = Reflect.ownKeys;
  for (const name of ["close", "fchmod", "fchown", "fdatasync", "fstat", "fsync", "ftruncate", "futimes", "read", "readv", "write", "writev", "readFile", "writeFile", "appendFile"]) {
    for (const key of [name, name + "Sync"]) {
      const f = fs[key];
      if (typeof f !== "function") continue;
      const sync = key !== name;
      const g = function (...args) {
        if (args[0] !== REQUESTS && args[0] !== ANSWERS) return ReflectApply(f, this, args);
        const e = badFd(name);
        const cb = args[args.length - 1];
        if (sync || typeof cb !== "function") throw e;
        process.nextTick(cb, e);
      };
      // What util.promisify reads of Node's function (fs.read's and fs.write's results as an
      // object) stays.
      const keys = ReflectOwnKeys(f);
      for (let i = 0; i < keys.length; i++) {
        if (typeof keys[i] === "symbol") ObjectDefineProperty(g, keys[i], ReflectGetOwnPropertyDescriptor(f, keys[i]));
      }
      fs[key] = g;
    }
  }
}
// Stat and its kin (exists, access, realpath, readlink, statfs) of a path outside the root and
// Node's temporary folder answer as for a path where nothing is, whether or not something is:
// Landlock (ABI 7 and older) does not restrict them, and a tool (the app's PostCSS plugins)
// could otherwise tell whether a file of the machine exists, its size and times, and write it
// into the CSS. Code written to harm can go around Node's fs; the tools bundle runs do not.
function notThere(p, syscall) {
  return Object.assign(new Error(`ENOENT: no such file or directory, ${syscall} '${p}'`), { code: "ENOENT", errno: -2, syscall, path: p });
}
const hidden = (p) => p !== null && !readable(p);
for (const name of ["stat", "lstat", "access", "realpath", "readlink", "statfs"]) {
  const async = fs[name], sync = fs[name + "Sync"], promised = fs.promises[name];
  if (typeof async === "function") {
    fs[name] = function (...args) {
      const cb = args[args.length - 1];
      const p = pathAt(args, 0);
      if (hidden(p) && typeof cb === "function") return process.nextTick(cb, notThere(p, name));
      return ReflectApply(async, this, args);
    };
  }
  if (typeof sync === "function") {
    fs[name + "Sync"] = function (...args) {
      const p = pathAt(args, 0);
      if (hidden(p)) {
        if ((name === "stat" || name === "lstat") && args[1]?.throwIfNoEntry === false) return undefined;
        throw notThere(p, name);
      }
      return ReflectApply(sync, this, args);
    };
  }
  if (typeof promised === "function") {
    fs.promises[name] = async function (...args) {
      const p = pathAt(args, 0);
      if (hidden(p)) throw notThere(p, name);
      return ReflectApply(promised, this, args);
    };
  }
  for (const [obj, key, orig] of [[fs, name, async], [fs, name + "Sync", sync]]) {
    if (typeof orig?.native === "function") {
      const native = orig.native;
      obj[key].native = key.endsWith("Sync")
        ? (...args) => { const p = pathAt(args, 0); if (hidden(p)) throw notThere(p, name); return ReflectApply(native, undefined, args); }
        : (...args) => { const p = pathAt(args, 0), cb = args[args.length - 1]; if (hidden(p) && typeof cb === "function") return process.nextTick(cb, notThere(p, name)); return ReflectApply(native, undefined, args); };
    }
  }
}
{
  const exists = fs.exists, existsSync = fs.existsSync;
  fs.existsSync = (...args) => !hidden(pathAt(args, 0)) && ReflectApply(existsSync, undefined, args);
  fs.exists = (...args) => (hidden(pathAt(args, 0)) ? process.nextTick(args[1], false) : ReflectApply(exists, undefined, args));
}
syncBuiltinESMExports();

// Node's code opens no socket: no TCP or UNIX connection, no server, no UDP, as the kernel's
// fence holds it for Node (Landlock and a seccomp filter). Where that fence is off, nothing
// else would hold it (Node's permission model has no rule for the network before Node 25),
// and a config could fetch what a service of the machine answers (a cloud's metadata
// endpoint: its keys) and put it in the page. Each refusal comes as the kernel's would, an
// EACCES error on the socket; the runner's own streams are pipes it is given, never opened.
{
  const noSocket = (syscall) =>
    Object.assign(new Error(`${syscall} EACCES: bundle lets the app's Node code open no socket`), { code: "EACCES", errno: -13, syscall, refusal: { by: "checks", what: "socket" } });
  const refuse = (syscall) =>
    function (...args) {
      const cb = args.findLast((a) => typeof a === "function");
      const e = noSocket(syscall);
      process.nextTick(() => (syscall === "send" && cb ? cb(e) : typeof this.destroy === "function" && syscall === "connect" ? this.destroy(e) : this.emit("error", e)));
      return this;
    };
  net.Socket.prototype.connect = refuse("connect");
  net.Server.prototype.listen = refuse("listen");
  dgram.Socket.prototype.bind = refuse("bind");
  dgram.Socket.prototype.connect = refuse("connect");
  dgram.Socket.prototype.send = refuse("send");
  // Name resolution opens its sockets in native code (getaddrinfo for lookup, c-ares for the
  // others), which the refusals above do not see, and reads the machine's /etc/hosts and
  // /etc/resolv.conf: with the kernel's fence off, a config put dns.getServers() (the
  // machine's name servers) and lookup's answers in the page, and its queries left the
  // machine. Every function of node:dns and its promises, and a Resolver's methods, refuse as
  // a socket is refused.
  const noDNS = (syscall) =>
    function (...args) {
      const e = noSocket(syscall);
      const cb = args.findLast((a) => typeof a === "function");
      if (cb) {
        process.nextTick(cb, e);
        return {};
      }
      throw e;
    };
  const noDNSAsync = (syscall) => async () => {
    throw noSocket(syscall);
  };
  for (const [api, wrap] of [[dns, noDNS], [dns.promises, noDNSAsync]]) {
    for (const name of Object.keys(api)) {
      if (typeof api[name] !== "function" || /^[A-Z]/.test(name) || name.endsWith("DefaultResultOrder")) continue;
      api[name] = wrap(name === "lookup" ? "getaddrinfo" : name);
    }
    for (const proto of [api.Resolver?.prototype, Object.getPrototypeOf(api.Resolver?.prototype ?? {})]) {
      if (!proto || proto === Object.prototype) continue;
      for (const name of Object.getOwnPropertyNames(proto)) {
        if (name === "constructor" || typeof proto[name] !== "function") continue;
        proto[name] = wrap(name);
      }
    }
  }
}

// What Node tells of the machine it runs on, in native code that the fs guards, the refusals
// above and Node's permission model do not see (with the kernel's fence off, and some of it
// inside: uname and sysinfo are no files), a config or a PostCSS plugin could write into the
// page: its name, its processors, memory, kernel, load and uptime, where Node is. Each is
// refused as the kernel's fence refuses it, or answers one fixed value whichever fence holds,
// so that no page tells the machine it was built on, and the same app gives the same bytes:
//   - os.userInfo reads the user database (/etc/passwd) and os.networkInterfaces asks the
//     kernel through a netlink socket: refused (EACCES);
//   - os.hostname, os.cpus (the empty list the kernel's fence gives, /proc/stat refused),
//     os.availableParallelism, os.totalmem, os.freemem, os.uptime, os.loadavg, os.release,
//     os.version, os.machine, process.constrainedMemory, process.availableMemory, and
//     process.execPath, argv0, argv[0] and title (Node's path): fixed values;
//   - process.binding("os"), the same answers unfixed: refused;
//   - a diagnostic report (process.report.getReport, which detect-libc reads to tell glibc
//     from musl) gives the same fixed values, no machine limits, of the libraries loaded only a
//     musl C library's or loader's name, and no addresses (excludeNetwork, Node 20.13 and
//     later); none is written (writeReport, or on a signal or a fatal error, whose file a
//     config would read back): refused.
const noSystem = (call, what) => {
  const f = () => {
    const e = new Error(`A system error occurred: ${call} returned EACCES (permission denied): bundle lets the app's Node code read only ${root} and open no socket`);
    stackOf(e, f); // the stack starts at the call
    throw Object.assign(e, { code: "ERR_SYSTEM_ERROR", refusal: { by: "checks", what } });
  };
  return f;
};
os.userInfo = noSystem("uv_os_get_passwd", "read");
os.networkInterfaces = noSystem("uv_interface_addresses", "socket");
const machine = {
  hostname: "localhost",
  release: "0.0.0",
  version: "#1",
  machine: { x64: "x86_64", arm64: "aarch64", arm: "armv7l", ia32: "i686", ppc64: "ppc64le", s390x: "s390x", riscv64: "riscv64", loong64: "loongarch64" }[process.arch] ?? process.arch,
  memory: 2 ** 32,
};
Object.assign(os, {
  hostname: () => machine.hostname,
  cpus: () => [],
  availableParallelism: () => 1,
  totalmem: () => machine.memory,
  freemem: () => machine.memory,
  uptime: () => 0,
  loadavg: () => [0, 0, 0],
  release: () => machine.release,
  version: () => machine.version,
  machine: () => machine.machine,
});
for (const name of ["constrainedMemory", "availableMemory"]) if (typeof process[name] === "function") process[name] = () => machine.memory;
Object.defineProperty(process, "execPath", { value: "node", writable: false, enumerable: true, configurable: false });
process.argv[0] = "node"; // argv0 and title are the Go side's argv[0], "node"
{
  const binding = process.binding, osBinding = noSystem("process.binding(\"os\")", "read");
  process.binding = function (name) {
    return name === "os" ? osBinding() : ReflectApply(binding, this, [name]);
  };
}
if (process.report) {
  const report = process.report;
  const getReport = report.getReport.bind(report);
  const lock = (name, value) => Object.defineProperty(report, name, { get: () => value, set() {}, enumerable: true, configurable: false });
  if (Object.getOwnPropertyDescriptor(report, "excludeNetwork")?.set) {
    report.excludeNetwork = true;
    lock("excludeNetwork", true);
  }
  for (const name of ["reportOnSignal", "reportOnFatalError", "reportOnUncaughtException"]) {
    report[name] = false;
    lock(name, false);
  }
  report.getReport = (err) => {
    const r = getReport(err);
    Object.assign(r.header, { host: machine.hostname, osRelease: machine.release, osVersion: machine.version, osMachine: machine.machine, cpus: [], commandLine: ["node"] });
    // The machine's glibc (glibcVersionRuntime) is Node's own: the one it was built against,
    // which every machine that runs this Node has or passes. detect-libc, and the loaders of
    // Lightning CSS, Tailwind CSS's scanner, Rolldown and @parcel/watcher, read only whether
    // it is there (glibc, not musl) to choose their addon; on musl neither is.
    if (typeof r.header.glibcVersionRuntime === "string" && typeof r.header.glibcVersionCompiler === "string") r.header.glibcVersionRuntime = r.header.glibcVersionCompiler;
    delete r.header.networkInterfaces;
    // The libraries Node loaded, by path, tell the machine's layout: only a musl C
    // library's or loader's name stays (detect-libc tells musl by it where the header has no
    // glibcVersionRuntime); the machine's limits (userLimits) are "unlimited".
    if (Array.isArray(r.sharedObjects)) r.sharedObjects = r.sharedObjects.map((f) => String(f).split("/").pop()).filter((f) => f.includes("musl"));
    if (r.userLimits && typeof r.userLimits === "object") for (const k of Object.keys(r.userLimits)) r.userLimits[k] = { soft: "unlimited", hard: "unlimited" };
    return r;
  };
  report.writeReport = noSystem("process.report.writeReport", "write");
}
// fs.statfs tells the size and the free space of the disk the root is on (the stat guards
// above hide only what is outside): refused, as a system error, whichever fence holds. The
// heap's limit, which V8 takes from the machine's memory, is fixed by the Go side's flag.
{
  const refuse = noSystem("uv_fs_statfs", "read");
  const refusal = () => {
    try {
      refuse();
    } catch (e) {
      return e;
    }
  };
  fs.statfsSync = refuse;
  fs.statfs = (...args) => {
    const cb = args[args.length - 1];
    if (typeof cb !== "function") throw refusal();
    process.nextTick(cb, refusal());
  };
  fs.promises.statfs = async () => refuse();
}
syncBuiltinESMExports();

// CommonJS: node_modules folders are looked for up to the root, no higher; a module that
// resolves outside it anyway (a link, a global folder) is refused.
const nodeModulePaths = Module._nodeModulePaths;
Module._nodeModulePaths = function (from) {
  return ReflectApply(nodeModulePaths, this, [from]).filter((p) => within(path.dirname(p), root));
};
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const f = ReflectApply(resolveFilename, this, [request, ...rest]);
  if (path.isAbsolute(f) && !inRoot(f)) {
    throw Object.assign(new Error(`Cannot find module '${request}': it resolves to ${f}, outside ${root}`), { code: "MODULE_NOT_FOUND", outside: f });
  }
  return f;
};

// ES modules: a resolve hook, on the loaders' thread, refuses a file outside the root.
const hooks = `
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
let root;
export function initialize(data) { root = data.root; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (r.url.startsWith("file:")) {
    const f = fileURLToPath(r.url);
    let p = f;
    try { p = fs.realpathSync.native(f); } catch {}
    const rel = path.relative(root, p);
    if (rel.startsWith("..") || path.isAbsolute(rel)) {
      throw Object.assign(new Error("Cannot find module '" + specifier + "': it resolves to " + f + ", outside " + root), { code: "ERR_MODULE_NOT_FOUND" });
    }
  }
  return r;
}`;
register("data:text/javascript," + encodeURIComponent(hooks), { data: { root } });

// Native addons read files in their own code, which neither the fs guards above nor Node's
// permission model see. Those of the tools the runner runs are confined as they are loaded,
// by whatever route (a package's index, its platform package, the .node file itself: every
// addon comes through process.dlopen; Tailwind's WebAssembly build through Module._load),
// before any code of the app's holds them:
//   - Tailwind CSS's scanner scans only sources inside the root, with negated sources for
//     the links under them that lead out, and reads no file outside it (scanFiles and
//     getCandidatesWithPositions, given a file): its prototype's methods are replaced, so an
//     instance's constructor or prototype leads to no unchecked one.
//   - Lightning CSS's bundleAsync reads each file through a check (its resolver's read), and
//     bundle, which reads its @imports in native code and takes no resolver, runs only inside
//     the kernel's fence (MINIAPP_KERNEL_FENCE).
//   - Every other function of an addon (another package's: @parcel/watcher's writeSnapshot
//     lists any folder into any file; @swc/core's transformFile reads any file) runs only
//     inside the kernel's fence: outside it, called, it throws (kernelOnly names its package).
//     An addon is native code that could do the same as it loads: a package the app ships of
//     its own is held by the kernel's fence alone.
const reach = (s) => {
  // A source is a folder and a glob relative to it; the glob's leading segments without a
  // wildcard name the folder it reaches.
  const segs = s.pattern.split("/");
  const i = segs.findIndex((seg) => /[*?{}[\]!]/.test(seg));
  return path.resolve(s.base, ...(i < 0 ? segs : segs.slice(0, i)));
};
const confined = Symbol("confined");
function confinedScanner(Native) {
  const Scanner = function (opts) {
    const sources = opts?.sources ?? [];
    for (const s of sources) {
      if (!s.negated && !inRoot(reach(s))) {
        throw Object.assign(refused(reach(s), "scan"), { message: `@source "${s.pattern}" names ${reach(s)}, outside ${root}, which bundle does not let Tailwind CSS scan` });
      }
    }
    const negated = [];
    for (const s of sources) if (!s.negated) outsideLinks(reach(s), [], negated);
    return new Native({ ...opts, sources: sources.concat(negated) });
  };
  const proto = Native.prototype;
  for (const name of ["scanFiles", "getCandidatesWithPositions"]) {
    const f = proto[name];
    if (typeof f !== "function") continue;
    proto[name] = function (changed) {
      for (const c of [changed].flat()) {
        if (typeof c?.file === "string" && !inRoot(c.file)) throw refused(c.file, "scan");
      }
      return ReflectApply(f, this, [changed]);
    };
  }
  Scanner.prototype = proto;
  proto.constructor = Scanner;
  Scanner.confined = true;
  return Scanner;
}
const kernelFence = process.env.MINIAPP_KERNEL_FENCE === "1";
function confineAddon(m) {
  try {
    if (m !== null && (typeof m === "object" || typeof m === "function") && !m[confined]) confineExports(m);
  } catch {} // exports that cannot be looked at (a getter that throws) are no addon's
}
function confineExports(m) {
  if (isScanner(m) && !m.Scanner.confined) {
    m.Scanner = confinedScanner(m.Scanner);
  }
  if (isLightning(m)) {
    const { bundle, bundleAsync } = m;
    m.bundle = function (opts) {
      if (typeof opts?.filename === "string" && !inRoot(opts.filename)) throw refused(opts.filename, "read");
      if (!kernelFence) {
        throw Object.assign(new Error("Lightning CSS's bundle() reads the files it imports in native code, which bundle's checks do not see, and the kernel's fence is not around Node: call bundleAsync(), whose reads bundle checks, or build inside the kernel's fence"), { kernelOnly: "lightningcss" });
      }
      return ReflectApply(bundle, this, [opts]);
    };
    m.bundleAsync = function (opts) {
      const resolver = opts?.resolver;
      return ReflectApply(bundleAsync, this, [{ ...opts, resolver: { ...resolver,
        read(file) {
          if (!inRoot(file)) throw refused(file, "read");
          return typeof resolver?.read === "function" ? resolver.read(file) : fs.readFileSync(file, "utf8");
        } } }]);
    };
  }
  Object.defineProperty(m, confined, { value: true });
}
// isScanner and isLightning tell the addons confineExports confines by their exports; held
// are the functions of theirs that read no file or that it confines.
const isScanner = (m) => typeof m.Scanner === "function" && typeof m.Scanner.prototype?.scan === "function";
const isLightning = (m) => typeof m.bundle === "function" && typeof m.bundleAsync === "function" && typeof m.transformStyleAttribute === "function";
// readNoFile are the functions of other packages' addons that a config's imports call as they
// load and that read and write no file, by the prefix of the package's name: Rolldown's
// (Vite 8 imports it) sets up its tracing, which writes nothing where no RD_LOG variable is
// set (the environment has none; a config that sets one is refused the call).
const readNoFile = [["@rolldown/binding-", ["initTraceSubscriber"], () => !Object.keys(process.env).some((k) => k.startsWith("RD_LOG"))]];
function held(m) {
  const names = new Set();
  if (isScanner(m)) names.add("Scanner");
  if (isLightning(m)) for (const n of ["transform", "transformStyleAttribute", "bundle", "bundleAsync"]) names.add(n);
  return names;
}
// addonPackage names the package an addon's file is in (its nearest package.json's name),
// else the file.
function addonPackage(file) {
  for (let d = path.dirname(file); within(d, root) && d !== path.dirname(d); d = path.dirname(d)) {
    try {
      const name = JSON.parse(fs.readFileSync(path.join(d, "package.json"), "utf8")).name;
      if (typeof name === "string" && name !== "") return name;
    } catch {}
  }
  return file;
}
// kernelOnly replaces each function of an addon's exports that confineExports does not hold
// with one that throws: outside the kernel's fence nothing holds what it reads and writes.
function kernelOnly(module, file) {
  const m = module?.exports;
  if (m === null || (typeof m !== "object" && typeof m !== "function")) return;
  const pkg = addonPackage(String(file));
  const refuse = (name, f, ok = () => false) => {
    const g = function (...args) {
      if (ok()) return ReflectApply(f, this, args);
      throw Object.assign(new Error(`${pkg}'s native addon (its ${name}) reads and writes files in its own code, which neither bundle's path checks nor Node's permission model hold, and the kernel's fence is not around Node: bundle lets the app's code call it only inside that fence`),
        { kernelOnly: pkg, refusal: { by: "checks", what: "addon" } });
    };
    g.prototype = f.prototype; // instanceof as before
    return g;
  };
  if (typeof m === "function") {
    module.exports = refuse("exports", m);
    return;
  }
  const keep = held(m);
  const allowed = new Map();
  for (const [prefix, fns, ok] of readNoFile) if (pkg.startsWith(prefix)) for (const n of fns) allowed.set(n, ok);
  for (const name of Object.keys(m)) {
    if (keep.has(name) || typeof m[name] !== "function") continue;
    const g = refuse(name, m[name], allowed.get(name));
    try {
      m[name] = g;
    } catch {}
    if (m[name] !== g) {
      // A function that cannot be replaced: the addon is not loaded.
      module.exports = {};
      throw Object.assign(new Error(`${pkg}'s native addon cannot be confined outside the kernel's fence (its ${name} cannot be replaced): bundle does not load it there`), { kernelOnly: pkg });
    }
  }
}
const dlopen = process.dlopen;
// addonThrew holds what an addon's initialization threw as Node loaded it, by the addon's file
// (addonLoadRefused); Node's own failure to load the shared object (ERR_DLOPEN_FAILED) is not one.
const addonThrew = new WeakMap();
process.dlopen = function (module, file, ...rest) {
  const f = pathOf(file);
  if (f !== null && !inRoot(f)) throw refused(f, "read"); // an addon's code is run as it loads
  let r;
  try {
    r = ReflectApply(dlopen, this, [module, file, ...rest]);
  } catch (e) {
    if (f !== null && e !== null && typeof e === "object" && e.code !== "ERR_DLOPEN_FAILED") addonThrew.set(e, path.resolve(f));
    throw e;
  }
  confineAddon(module?.exports);
  if (!kernelFence) kernelOnly(module, file);
  return r;
};
const moduleLoad = Module._load;
Module._load = function (request, ...rest) {
  const m = ReflectApply(moduleLoad, this, [request, ...rest]);
  confineAddon(m);
  return m;
};

// load imports a package: resolved from dir (the app folder) as the app's own code would, else
// where the package manager put it (find).
async function load(name, dir = cwd) {
  const file = find(name, dir);
  if (file === null) throw Object.assign(new Error(`${name} is not installed`), { missing: name });
  const m = await import(pathToFileURL(file).href);
  return m.default ?? m;
}

// find resolves name from dir as Node does, else from the folder of each package the app
// depends on (pnpm keeps a package's dependencies beside it, in node_modules/.pnpm, not at
// the top: @tailwindcss/vite's @tailwindcss/node and @tailwindcss/oxide), the packages of the
// name's own scope first, then the others by name; else from pnpm's hoisting folder
// (node_modules/.pnpm/node_modules). It returns the file, or null.
function find(name, dir) {
  const resolve = (from) => {
    try {
      return createRequire(path.join(from, "_.js")).resolve(name);
    } catch (e) {
      if (e.outside) throw e; // installed through a link that leads out of the root
      return null;
    }
  };
  const found = resolve(dir);
  if (found !== null) return found;
  const folders = Module._nodeModulePaths(dir).filter((p) => fs.existsSync(p));
  const deps = new Set();
  const top = path.resolve(process.env.MINIAPP_ROOT || dir); // the app's, or its workspace's
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    try {
      const pj = JSON.parse(fs.readFileSync(path.join(d, "package.json"), "utf8"));
      for (const k of ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"]) {
        for (const dep of Object.keys(pj[k] ?? {})) deps.add(dep);
      }
    } catch {}
    if (d === top || path.dirname(d) === d) break;
  }
  const scope = name.startsWith("@") ? name.split("/")[0] + "/" : null;
  const order = [...deps].sort((a, b) => (scope !== null && !b.startsWith(scope)) - (scope !== null && !a.startsWith(scope)) || (a < b ? -1 : a > b ? 1 : 0));
  for (const dep of order) {
    for (const nm of folders) {
      const at = path.join(nm, dep);
      if (!fs.existsSync(path.join(at, "package.json"))) continue;
      const f = resolve(fs.realpathSync(at));
      if (f !== null) return f;
      break;
    }
  }
  for (const nm of folders) {
    const hoisted = path.join(nm, ".pnpm", "node_modules");
    if (fs.existsSync(hoisted)) {
      const f = resolve(path.join(hoisted, ".."));
      if (f !== null) return f;
    }
  }
  return null;
}

async function postcss({ file, css, config }) {
  const post = await load("postcss");
  let cfg;
  if (path.extname(config) === ".json") {
    // .postcssrc.json is JSON, as postcss-load-config reads it (no module to import: Node
    // would want an import attribute), its plugins named as keys with their options.
    try {
      cfg = JSON.parse(fs.readFileSync(config, "utf8"));
      // package.json's "postcss" key, which postcss-load-config reads first, is the same form.
      if (path.basename(config) === "package.json") cfg = cfg.postcss;
    } catch (e) {
      throw Object.assign(new Error(`${path.basename(config)} is not JSON: ${e.message}`), { file: config });
    }
    if (cfg === null || typeof cfg !== "object" || Array.isArray(cfg)) {
      const what = path.basename(config) === "package.json" ? `package.json's "postcss"` : path.basename(config);
      throw Object.assign(new Error(`${what} is not an object of PostCSS options, such as { "plugins": { "postcss-nesting": {} } }`), { file: config });
    }
  } else {
    cfg = (await import(pathToFileURL(config).href)).default;
  }
  if (typeof cfg === "function") cfg = await cfg({ env: "production", file });
  const dir = path.dirname(config);
  let plugins = cfg?.plugins ?? [];
  if (!Array.isArray(plugins)) {
    // The object form: { "plugin-name": options } (options false turns one off).
    const list = [];
    for (const [name, opts] of Object.entries(plugins)) {
      if (opts === false) continue;
      const p = await load(name, dir);
      // As postcss-load-config: options null, true or {} give the plugin as exported.
      const none = opts === null || opts === true || (typeof opts === "object" && Object.keys(opts).length === 0);
      list.push(typeof p === "function" ? (none ? (p.postcss === true ? p() : p) : p(opts)) : p);
    }
    plugins = list;
  }
  twMissing = null;
  let out;
  try {
    out = await post(plugins.filter(Boolean)).process(css, { from: file, map: false, ...(cfg?.parser ? { parser: cfg.parser } : {}) });
  } catch (e) {
    if (twMissing !== null && (e?.reason ?? e?.message) === twMissing.message) throw twMissing;
    throw e;
  }
  return { css: out.css };
}

// outsideLinks returns, for Tailwind's scanner (which follows links), a negated source for
// each link under dir that leads out of the root, so that no file outside is scanned.
function outsideLinks(dir, ignore, out = []) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isSymbolicLink()) {
      if (!inRoot(p)) {
        // The link itself and, were it a folder, all beneath it: what it leads to is not
        // looked at.
        const name = e.name.replace(/[*?[\]{}()!]/g, "\\$&");
        out.push({ base: dir, pattern: name, negated: true }, { base: dir, pattern: name + "/**/*", negated: true });
      }
    } else if (e.isDirectory() && e.name !== "node_modules" && e.name !== ".git" && !ignore.includes(p)) {
      outsideLinks(p, ignore, out);
    }
  }
  return out;
}

// compilers keeps, per stylesheet, Tailwind CSS's compiler between the requests of one
// process (bundle dev's rebuilds): compiling parses Tailwind's own stylesheets, most of a
// request's time. A compiler adds every candidate it is given to those it has built, so it is
// kept only while the stylesheet, its dependencies (their mtimes) and the folder are the
// same, and while the candidates found include every candidate it was given before: its
// output is then the output of a new compiler given these candidates. Otherwise it is
// compiled anew.
const compilers = new Map();

const mtime = (p) => fs.statSync(p, { throwIfNoEntry: false })?.mtimeMs ?? -1;

// Tailwind CSS (its compiler, whether @tailwindcss/postcss or this runner calls it) asks
// __tw_resolve first for each @plugin, @config, @import and @reference it resolves. A package
// name that no node_modules folder from the stylesheet's up holds, by Node's lookup of a
// package's folder (which Tailwind's resolver then does too, NODE_PATH being unset), and that
// is not the app's own package (a self-reference), is missing: the build explains it as it
// explains a PostCSS plugin that is. Anything else is left to Tailwind.
globalThis.__tw_resolve = (id, from) => {
  // The string the stylesheet wrote, for the module __tw_load is given next in the same load
  // (@tailwindcss/node's loadModule resolves, then imports): what notedPlugin notes.
  twSpecEnter(twSpec, id);
  if (id.startsWith(".") || id.startsWith("#") || path.isAbsolute(id) || /^[a-z][a-z0-9+.-]*:/i.test(id)) return undefined;
  const name = id.startsWith("@") ? id.split("/").slice(0, 2).join("/") : id.split("/")[0];
  if (Module._nodeModulePaths(from).some((nm) => fs.existsSync(path.join(nm, name, "package.json")))) return undefined;
  for (let d = path.resolve(from); ; d = path.dirname(d)) {
    const pj = path.join(d, "package.json");
    if (fs.existsSync(pj)) {
      try {
        if (JSON.parse(fs.readFileSync(pj, "utf8")).name === name) return undefined;
      } catch {}
      break;
    }
    if (path.dirname(d) === d) break;
  }
  throw (twMissing = Object.assign(new Error(`${name} is not installed`), { missing: name, spec: id }));
};
// twSpec holds, in the async context of one of Tailwind's module loads, the string its
// @plugin or @config wrote.
const twSpec = new AsyncLocalStorage();
const twSpecEnter = uncurryThis(AsyncLocalStorage.prototype.enterWith), twSpecOf = uncurryThis(AsyncLocalStorage.prototype.getStore);

// notedPlugin is a module's export p, a Tailwind plugin (a function, an object with a
// handler, or an options function that gives one), whose calls note on the answers' pipe
// that the request id runs the code of the at-rule that wrote spec, and that it returned: a
// plugin that never returns is said at its @plugin when the request's bound kills Node.
function notedPlugin(p, id, spec) {
  const wrap = (f) =>
    new Proxy(f, {
      apply(target, self, args) {
        noteRunning(id, { rule: "", spec });
        try {
          const r = ReflectApply(target, self, args);
          return r !== null && typeof r === "object" ? notedPlugin(r, id, spec) : r;
        } finally {
          noteRunning(id, { rule: "", spec: "" });
        }
      },
    });
  if (typeof p === "function") return wrap(p);
  if (p === null || typeof p !== "object" || typeof p.handler !== "function") return p;
  const d = ReflectGetOwnPropertyDescriptor(p, "handler");
  if (d !== undefined && !d.configurable && !d.writable) return p; // a Proxy must give it as it is
  const handler = wrap(p.handler);
  return new Proxy(p, { get: (target, k, receiver) => (k === "handler" ? handler : Reflect.get(target, k, receiver)) });
}

// twMissing is the last package __tw_resolve found missing: @tailwindcss/postcss rethrows
// what its compiler throws as a new CssSyntaxError of the same message, without its fields.
let twMissing = null;

async function tailwind({ file, css, base, ignore }) {
  const tw = await load("@tailwindcss/node", base);
  const { Scanner } = await load("@tailwindcss/oxide", base);
  if (!Scanner.confined) throw new Error("@tailwindcss/oxide's Scanner was loaded without bundle's checks"); // fail closed
  // A stylesheet or module (@import, @plugin, @config, @reference) is named to onDependency
  // before it is read; a module is given to __tw_load before it is imported.
  const check = (p) => {
    if (!inRoot(p)) throw refused(p, "read");
  };
  globalThis.__tw_load = async (url) => {
    if (url.startsWith("file:")) check(fileURLToPath(url.split("?")[0]));
    // The module imported here, its plugin's calls noted, where the load's @plugin or @config
    // string is known; Tailwind's own import where it is not, or where this one fails (a
    // TypeScript module, which it loads with jiti).
    const id = requestOf(), spec = twSpecOf(twSpec);
    if (id === undefined || typeof spec !== "string") return undefined;
    let m;
    noteRunning(id, { rule: "", spec });
    try {
      m = await import(url);
    } catch {
      return undefined;
    } finally {
      noteRunning(id, { rule: "", spec: "" });
    }
    return { default: notedPlugin(m.default ?? m, id, spec) };
  };
  const compile = async () => {
    const deps = new Map();
    const onDependency = (p) => {
      check(p);
      deps.set(p, mtime(p));
    };
    const compiler = await tw.compile(css, { base: path.dirname(file), from: file, onDependency });
    const c = { css, base, deps, compiler, given: new Set() };
    compilers.set(file, c);
    return c;
  };
  let c = compilers.get(file);
  if (!c || c.css !== css || c.base !== base || [...c.deps].some(([p, m]) => mtime(p) !== m)) c = await compile();
  const compiler = c.compiler;
  // The sources Tailwind scans for class names: the app folder (as @tailwindcss/postcss does
  // with its working directory), minus the build's own output; each @source inside the root.
  const root0 = compiler.root === "none" ? [] : compiler.root === null ? [{ base, pattern: "**/*", negated: false }] : [{ ...compiler.root, negated: false }];
  const sources = root0.concat(compiler.sources);
  const negated = (ignore ?? []).map((dir) => ({ base: dir, pattern: "**/*", negated: true }));
  const candidates = new Scanner({ sources: sources.concat(negated) }).scan().sort();
  const found = new Set(candidates);
  if ([...c.given].some((x) => !found.has(x))) c = await compile(); // a class name went away
  for (const x of candidates) c.given.add(x);
  return { css: c.compiler.build(candidates) };
}

// sassFile finds the file a Sass load of the file: URL's path p names, as Sass's own
// filesystem importer does: the path with .sass, .scss or .css, its partial (_name), its
// index (name/_index.scss); two that both exist are an error.
function sassFile(p, fromImport) {
  // A link that leads out of the root counts as found, whether or not its target exists: the
  // importer refuses it where the @use names it.
  const isFile = (f) => {
    const r = resolveIn(f, root);
    if (r === OUTSIDE) return inRoot(path.dirname(f)) && fs.lstatSync(f, { throwIfNoEntry: false }) !== undefined;
    return r !== null && (fs.statSync(r, { throwIfNoEntry: false })?.isFile() ?? false);
  };
  const one = (cands) => {
    const found = cands.filter(isFile);
    if (found.length > 1) throw new Error(`It's not clear which file to import. Found:\n  ${found.join("\n  ")}`);
    return found[0] ?? null;
  };
  const partial = (f) => [path.join(path.dirname(f), "_" + path.basename(f)), f];
  const exts = (f) => {
    if ([".sass", ".scss", ".css"].includes(path.extname(f))) return one(partial(f));
    if (fromImport) {
      const imp = one([".sass", ".scss"].flatMap((e) => partial(f + ".import" + e)));
      if (imp) return imp;
    }
    return one([".sass", ".scss"].flatMap((e) => partial(f + e))) ?? one(partial(f + ".css"));
  };
  return exts(p) ?? exts(path.join(p, "index"));
}

// rebaseUrls is Vite's rebaseUrls (plugins/css.ts): the contents of a Sass or Less file that
// another (the entry, rootFile) loads from another folder, with each relative url(), Less's
// data-uri() and @import "x.css" rewritten to name the same file from the entry's folder,
// since the compiled CSS is read as the entry's. Vite's own expressions find them; a URL with a
// scheme, a data: URL, a fragment, a function call, a root-relative path, or what skip says is
// the language's variable, stays. Vite's resolver (its aliases, packages) comes first where a
// relative path names no file; here such a URL stays for the build's resolver, which applies
// the aliases from the entry. Stylus has none: Vite leaves its url()s as written.
const cssUrlRE = /(?<!@import\s+)(?<=^|[^\w\-\u0080-\uffff])url\((\s*('[^']+'|"[^"]+")\s*|(?:\\.|[^'")\\])+)\)/g;
const cssDataUriRE = /(?<=^|[^\w\-\u0080-\uffff])data-uri\((\s*('[^']+'|"[^"]+")\s*|[^'")]+)\)/g;
const importCssRE = /@import\s+(?:url\()?('[^']+\.css'|"[^"]+\.css"|[^'"\s)]+\.css)/g;
const functionCallRE = /^[A-Z_][.\w-]*\(/i;
function rebaseUrls(content, file, rootFile, skip) {
  const fileDir = path.dirname(file), rootDir = path.dirname(rootFile);
  if (fileDir === rootDir) return content;
  const rebase = (unquoted, raw) => {
    if (skip(unquoted, raw) || unquoted[0] === "/") return false;
    const abs = path.resolve(fileDir, unquoted);
    if (!/^\.\.?\//.test(unquoted) && !fs.existsSync(abs)) return false;
    const rel = path.relative(rootDir, abs).split(path.sep).join("/");
    return rel.startsWith("../") ? rel : "./" + rel;
  };
  // Vite's doUrlReplace and doImportCSSReplace: quotes kept, added where the new URL needs them.
  const replace = (raw, matched, fn) => {
    let wrap = raw[0] === '"' || raw[0] === "'" ? raw[0] : "";
    let u = wrap ? raw.slice(1, -1) : raw;
    if (/^([a-z]+:)?\/\//i.test(u) || /^\s*data:/i.test(u) || u[0] === "#" || functionCallRE.test(u)) return matched;
    const out = rebase(u.replace(/\\(\W)/g, "$1"), raw);
    if (out === false) return matched;
    if (fn === null) return `@import ${matched.includes("url(") ? "url(" : ""}${wrap}${out}${wrap}`;
    if (wrap === "" && (out !== encodeURI(out) || out.includes(")"))) wrap = '"';
    if (wrap === "'" && out.includes("'")) wrap = '"';
    return `${fn}(${wrap}${wrap === '"' ? out.replace(/(?<!\\)"/g, '\\"') : out}${wrap})`;
  };
  return content
    .replace(importCssRE, (m, raw) => replace(raw, m, null))
    .replace(cssUrlRE, (m, raw) => replace(raw.trim(), m, "url"))
    .replace(cssDataUriRE, (m, raw) => replace(raw.trim(), m, "data-uri"));
}
// Vite's skipRebaseUrls: Sass's url($var) and #{…} interpolations, Less's @var and @{…}.
const sassVariable = (u, raw) => (!(raw[0] === '"' || raw[0] === "'") && u[0] === "$") || u.startsWith("#{");
const lessVariable = (u) => u[0] === "@";

const sassSyntax = (f) => (f.endsWith(".sass") ? "indented" : f.endsWith(".css") ? "css" : "scss");

// sassImporters are the importers of a Sass compile whose entry is file (a stylesheet, or a
// Vue component whose <style lang="scss"> is compiled). Every load goes through importer, the
// entry's too: relative and absolute paths (Sass resolves them against the loading file's
// URL), each found inside the root or refused where the @use is written. aliased finds an
// import the config's aliases rewrite (@use "@/styles/vars"), or of a package (its exports by
// the conditions sass and style, else its sass or style field, else a file of it), as Vite's
// Sass resolver reads it, once Sass found no file relative to the importing one.
function sassImporters(file, aliases) {
  const importer = {
    canonicalize(url, context) {
      if (!url.startsWith("file:")) return null;
      const p = fileURLToPath(url);
      // Where it is decides, before whether it is there: nothing outside is looked at.
      if (!inRoot(path.dirname(p))) throw new Error(`${p} is outside ${root}, and bundle lets Sass read only files inside it`);
      const found = sassFile(p, context?.fromImport);
      if (found === null) return null;
      if (!inRoot(found)) throw new Error(`${found} is outside ${root}, and bundle lets Sass read only files inside it`);
      return pathToFileURL(found);
    },
    load(canonical) {
      const f = fileURLToPath(canonical);
      // sourceMapUrl: the source map names the file (a data: URL of its text otherwise).
      return { contents: rebaseUrls(fs.readFileSync(f, "utf8"), f, file, sassVariable), syntax: sassSyntax(f), sourceMapUrl: canonical };
    },
  };
  const aliased = {
    canonicalize(url, context) {
      const from = context?.containingUrl ? fileURLToPath(context.containingUrl) : file;
      const to = applyAlias(url, aliases, from) ?? packageStyle(url, from, ["sass", "style"], [".scss", ".sass", ".css"]);
      return to === null ? null : importer.canonicalize(pathToFileURL(to).href, context);
    },
    load: importer.load,
  };
  return { importer, aliased };
}

// loadPathImporter finds a load that nothing relative to its file found in each load path in
// turn (Sass's rule), as importer finds a file: its partials, extensions and index files, each
// inside the root or refused where the @use names it. A URL with a scheme is no load path's.
function loadPathImporter(loadPaths, importer) {
  return {
    canonicalize(url, context) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return null;
      for (const dir of loadPaths) {
        const found = importer.canonicalize(new URL(url, pathToFileURL(dir + path.sep)).href, context);
        if (found !== null) return found;
      }
      return null;
    },
    load: importer.load,
  };
}

async function sass({ file, options, aliases, map, source, lang }) {
  let s;
  try {
    s = await load("sass");
  } catch (e) {
    if (!kernelFence && find("sass-embedded", cwd) !== null) {
      // Its compiler is a program, which Node's permission model does not hold: granted the
      // right to start it, the process would let the app's PostCSS config start any.
      throw Object.assign(new Error("sass-embedded's compiler is a native program"), { kernelOnly: "sass-embedded" });
    }
    s = await load("sass-embedded").catch(() => Promise.reject(e));
  }
  const syntax = lang ? () => (lang === "sass" ? "indented" : "scss") : sassSyntax;
  const { importer, aliased } = sassImporters(file, aliases);
  const src = source ?? fs.readFileSync(file, "utf8");
  const { code, rest, place } = withData(src, file, options, "", lang);
  // The load paths are an importer of bundle's, last, as Sass looks in them after its
  // importers: given to Sass, they were read by its own filesystem importer, which Node's fs
  // guards for the sass package but not for sass-embedded, whose Dart compiler reads them.
  const { loadPaths, ...opts } = rest;
  const importers = [aliased];
  if (Array.isArray(loadPaths) && loadPaths.length > 0) importers.push(loadPathImporter(loadPaths, importer));
  try {
    const r = s.compileString(code, { ...opts, url: pathToFileURL(file), syntax: syntax(file), importer, importers, style: "expanded", sourceMap: !!map });
    // The source map Sass gives (its sources file: URLs), with the lines and the last line's
    // length of the additionalData before the entry's text (head), which its places in the
    // entry count.
    const head = code.length - src.length;
    const lines = code.slice(0, head).split("\n");
    return { css: r.css, map: map && r.sourceMap ? JSON.stringify({ ...r.sourceMap, x_miniapp_head: [lines.length - 1, lines[lines.length - 1].length] }) : undefined };
  } catch (e) {
    const span = e?.span;
    if (!span?.start) throw e;
    throw place(Object.assign(new Error(e.sassMessage ?? e.message), { file: span.url ? fileURLToPath(span.url) : file, line: span.start.line + 1, column: span.start.column + 1 }));
  }
}

// applyAlias rewrites an import by the first of the config's aliases that matches it, as
// @rollup/plugin-alias does (a string matches the import or its start before a "/", a
// regular expression as String.prototype.replace applies it), and returns the file it names:
// an absolute path as written, else one under the app folder when it starts with "/" (Vite's
// root-relative), else relative to the importing file. null when no alias matches.
function applyAlias(id, aliases, importer) {
  for (const a of aliases ?? []) {
    let to = null;
    if (a.regex !== undefined) {
      if (new RegExp(a.regex, a.flags).test(id)) to = id.replace(new RegExp(a.regex, a.flags), a.replacement);
    } else if (id === a.find || id.startsWith(a.find + "/")) {
      to = a.replacement + id.slice(a.find.length);
    }
    if (to === null) continue;
    if (to.startsWith("file:")) return fileURLToPath(to);
    if (path.isAbsolute(to) && fs.existsSync(path.dirname(to))) return to;
    if (to.startsWith("/")) return path.join(cwd, to);
    return path.resolve(path.dirname(importer), to);
  }
  return null;
}

// packageStyle finds the stylesheet a bare import names in a package, as Vite's CSS
// resolvers do (mainFields and conditions fields, production, default): the package's folder in
// the node_modules nearest above the importing file (inside the root); its exports for the
// subpath by Node's rules with those conditions; without exports, the field for the package
// itself, or the subpath's file. The path (for Sass to find its partial or index), or null.
function packageStyle(spec, from, fields, exts) {
  const m = /^((?:@[^/]+\/)?[^/.@][^/]*)(\/.*)?$/.exec(spec);
  if (!m || spec.includes(":")) return null;
  const [, name, rest = ""] = m;
  let dir = null;
  for (let d = path.dirname(from); within(d, root); d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, "node_modules", name, "package.json"))) {
      dir = path.join(d, "node_modules", name);
      break;
    }
    if (path.dirname(d) === d) break;
  }
  if (dir === null) return null;
  let pkg;
  try {
    pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  } catch {
    return null;
  }
  const sub = "." + rest;
  if (pkg.exports != null) {
    const conds = new Set([...fields, "production", "default"]);
    let exp = pkg.exports;
    if (typeof exp === "string" || Array.isArray(exp) || !Object.keys(exp).some((k) => k.startsWith("."))) exp = { ".": exp };
    const target = (t, star) => {
      if (typeof t === "string") return t.startsWith("./") ? path.join(dir, star === undefined ? t : t.replaceAll("*", star)) : null;
      if (Array.isArray(t)) {
        for (const x of t) {
          const r = target(x, star);
          if (r != null) return r;
        }
        return null;
      }
      if (t !== null && typeof t === "object") {
        for (const k of Object.keys(t)) {
          if (conds.has(k)) {
            const r = target(t[k], star);
            if (r !== undefined) return r;
          }
        }
        return undefined;
      }
      return null;
    };
    if (Object.hasOwn(exp, sub)) return exts.includes(path.extname(target(exp[sub]) ?? "")) ? target(exp[sub]) : null;
    // A pattern: the longest prefix before its * (Node's PATTERN_KEY_COMPARE).
    let best = null;
    for (const k of Object.keys(exp)) {
      const star = k.indexOf("*");
      if (star < 0 || !sub.startsWith(k.slice(0, star)) || !sub.endsWith(k.slice(star + 1)) || sub.length < k.length - 1) continue;
      if (best === null || star > best.indexOf("*")) best = k;
    }
    if (best === null) return null;
    const star = best.indexOf("*");
    const r = target(exp[best], sub.slice(star, sub.length - (best.length - star - 1)));
    return r && exts.includes(path.extname(r)) ? r : null;
  }
  if (rest === "") {
    for (const f of fields) if (typeof pkg[f] === "string") return path.join(dir, pkg[f]);
    return path.join(dir, "index");
  }
  return path.join(dir, rest);
}

// withData is Vite's getSource: the config's additionalData (css.preprocessorOptions.<lang>)
// written before the stylesheet's text, sep between, and the other options; place moves an
// error's line in the stylesheet back to its own, and says one in the additionalData is there.
function withData(src, file, options, sep, lang = path.extname(file).slice(1).toLowerCase()) {
  const { additionalData, ...rest } = options ?? {};
  if (typeof additionalData !== "string" || additionalData === "") return { code: src, rest, place: (e) => e };
  const head = additionalData + sep;
  const lines = head.split("\n");
  const n = lines.length - 1, last = lines[n].length;
  const place = (e) => {
    if (e.file !== file || typeof e.line !== "number") return e;
    if (e.line <= n || (e.line === n + 1 && e.column <= last)) {
      e.message += ` (in css.preprocessorOptions.${lang}.additionalData)`;
      delete e.line;
      return e;
    }
    if (e.line === n + 1) e.column -= last;
    e.line -= n;
    return e;
  };
  return { code: head + src, rest, place };
}


// less compiles a Less stylesheet with the app's own less, as Vite's Less plugin does: its
// imports found by Less (relative, then node_modules), each read inside the root, its url()s
// rebased (rebaseUrls); a JavaScript @plugin is run as Less runs it.
async function less({ file, options, aliases, source }) {
  const lessc = await load("less");
  notePlugins(lessc);
  const id = requestOf();
  const specs = (lessPlugins[id] = new Map());
  class Manager extends lessc.FileManager {
    supports(filename) {
      return !/^(?:https?:)?\/\//.test(filename);
    }
    supportsSync(filename) {
      return this.supports(filename);
    }
    // Less's data-uri() and image-size() read their file here, synchronously: one whose path
    // leaves the root is refused, which Less says at the call, in the file that makes it (its
    // own reader tried each place and, refused, said "file not found" and wrote url() of it,
    // which the build then refused at a line of the compiled CSS, named as the entry's).
    loadFileSync(filename, dir, opts, env) {
      const p = path.resolve(dir, filename.split("#")[0]);
      if (resolveIn(p, root) === OUTSIDE) {
        const e = refused(p, "read");
        refusals.push(e);
        throw e;
      }
      return reader.loadFileSync(filename, dir, opts, env); // Less's own (its loadFile, not this one's)
    }
    async loadFile(filename, dir, opts, env) {
      let to = applyAlias(filename, aliases, path.join(dir, "_"));
      if (to === null && !/^\.{0,2}\//.test(filename) && !["", ".less", ".css"].some((e) => fs.existsSync(path.join(dir, filename + e)))) {
        // A package, as Vite's Less resolver reads it (less and style), once no file beside.
        to = packageStyle(filename, path.join(dir, "_"), ["less", "style"], [".less", ".css"]);
      }
      const r = await super.loadFile(to ?? filename, dir, opts, env);
      if (!inRoot(r.filename)) throw refused(r.filename, "read");
      // A plugin's code (Less runs it with new Function) is named by its file in stack frames,
      // and its @plugin's string kept by it (notePlugins).
      if (opts?.mime === "application/javascript") specs.set(r.filename, filename);
      if (opts?.mime === "application/javascript") return { ...r, contents: r.contents + "\n//# sourceURL=" + pathToFileURL(r.filename).href };
      return { filename: r.filename, contents: rebaseUrls(r.contents, r.filename, file, lessVariable) };
    }
  }
  const reader = new lessc.FileManager();
  // The reads Manager refused in a function Less calls, whose error Less makes anew (the
  // function's name, its message, the place of the call).
  const refusals = [];
  // The @plugin rules, found before Less evaluates the stylesheet (and calls what they add).
  const plugins = [];
  const collect = {
    isPreEvalVisitor: true,
    run(tree) {
      const walk = (rules) => {
        for (const n of Array.isArray(rules) ? rules : []) {
          if (n?.type === "Import" && n.options?.isPlugin) plugins.push(n);
          else if (n?.root?.rules) walk(n.root.rules);
          if (n?.rules) walk(n.rules);
        }
      };
      walk(tree?.rules);
      return tree;
    },
  };
  const plugin = { install: (_, pm) => { pm.addFileManager(new Manager()); pm.addVisitor(collect); }, minVersion: [3, 0, 0] };
  const { code, rest, place } = withData(source ?? fs.readFileSync(file, "utf8"), file, options, "", "less");
  const swallowed = (refusalsOf[id] = []);
  try {
    const out = await lessc.render(code, { paths: [path.join(cwd, "node_modules")], ...rest, filename: file, plugins: [plugin] });
    if (swallowed.length > 0) throw pluginRefused(swallowed[0], plugins, code, file, place);
    return { css: out.css };
  } catch (e) {
    if (e?.missing || e?.outside || typeof e?.line !== "number") throw e;
    // Less's error: its place with a 0-based column, in the file Less names (an @import's).
    const outside = refusals.find((r) => String(e.message).endsWith(r.message))?.outside;
    throw place(Object.assign(new Error(e.message), { file: e.filename || file, line: e.line, column: (e.column ?? 0) + 1, ...(outside ? { outside } : {}) }));
  } finally {
    delete refusalsOf[id];
    delete lessPlugins[id];
  }
}

// lessPlugins holds, by request id, the @plugin strings of a Less compile by the file each
// names (Manager.loadFile). notePlugins has Less's plugin loader say, on the answers' pipe,
// which @plugin's code it runs (its file's code and install) for the request, and that it
// returned: a plugin that never returns is then said at its @plugin when the request's bound
// kills Node (TimeoutError.Running), not at the stylesheet alone.
const lessPlugins = { __proto__: null };
const notedLess = Symbol("noted");
function notePlugins(lessc) {
  let proto = lessc.PluginLoader?.prototype;
  while (proto && !ObjectHasOwn(proto, "evalPlugin")) proto = ObjectGetPrototypeOf(proto);
  if (!proto || proto[notedLess] || typeof proto.evalPlugin !== "function") return;
  const evalPlugin = proto.evalPlugin;
  proto.evalPlugin = function (...args) {
    const id = requestOf();
    const spec = id === undefined ? undefined : lessPlugins[id]?.get(args[4]?.filename);
    if (spec === undefined) return ReflectApply(evalPlugin, this, args);
    noteRunning(id, { rule: "@plugin", spec });
    try {
      return ReflectApply(evalPlugin, this, args);
    } finally {
      noteRunning(id, { rule: "", spec: "" });
    }
  };
  ObjectDefineProperty(proto, notedLess, { __proto__: null, value: true });
}

// pluginRefused is the failure of a Less compile that went on past a read bundle refused
// (Less's file manager, which a @plugin's code read with, gives a refused read as no contents):
// placed at the @plugin whose code read (its file in the refusal's stack, by the sourceURL
// the Manager gave it), else the first @plugin, else the stylesheet.
function pluginRefused(e, plugins, code, file, place) {
  const stack = String(e.stack);
  const by = plugins.find((n) => typeof n.importedFilename === "string" && stack.includes(pathToFileURL(n.importedFilename).href)) ?? plugins[0];
  const err = Object.assign(new Error(e.message), { outside: e.outside, refusal: e.refusal, file });
  if (by === undefined) return err;
  const f = by.fileInfo?.()?.filename ?? file;
  const text = f === file ? code : fs.readFileSync(f, "utf8");
  const before = text.slice(0, by.getIndex());
  const line = before.split("\n").length, column = before.length - before.lastIndexOf("\n");
  err.message += ` (read by the code of @plugin "${by.path?.value ?? by.path}")`;
  return f === file ? place(Object.assign(err, { file: f, line, column })) : Object.assign(err, { file: f, line, column });
}

// stylus compiles a Stylus stylesheet with the app's own stylus, as Vite's Stylus plugin does
// (node_modules on its import path; url()s as written).
async function stylus({ file, options, source, lang }) {
  const st = await load("stylus");
  // Vite's: a new line between the additionalData and the stylesheet, define's values defined.
  const { code, rest, place } = withData(source ?? fs.readFileSync(file, "utf8"), file, options, "\n", lang);
  const { define, ...opts } = rest;
  try {
    const ref = st(code, { paths: [path.join(cwd, "node_modules")], ...opts, filename: file });
    for (const [k, v] of Object.entries(define ?? {})) {
      if (v !== null && typeof v === "object" && "lineno" in v && "filename" in v) {
        // A Stylus node the config made (new stylus.nodes.RGBA(…)) reaches here as its fields.
        throw new Error(`css.preprocessorOptions.${lang ?? path.extname(file).slice(1)}.define.${k} is a Stylus node made by the config, which bundle cannot pass to Stylus: give a string, number or boolean, or define it in a stylesheet the others import`);
      }
      ref.define(k, v);
    }
    return { css: ref.render() };
  } catch (e) {
    // Stylus's error: "file:line:col", the lines around, a blank line, then what is wrong.
    const m = /^(\/[^\n]*?):(\d+):(\d+)\n[\s\S]*?\n\n([\s\S]+)$/.exec(String(e?.message ?? ""));
    if (e?.outside || !m) throw e;
    throw place(Object.assign(new Error(m[4].trim()), { file: m[1], line: Number(m[2]), column: Number(m[3]) }));
  }
}

// viteconfig imports a Vite config as Vite's loadConfigFromFile does: the config file,
// bundled to one ES module by the caller (esbuild, its packages left to import, its source
// map inline), imported here as if it were the file itself (its imports resolve from its
// folder, through the root's confinement), then called with Vite's build environment when it
// exports a function. The answer is the config as JSON: values JSON cannot hold are
// described ({regex}, {function: true}), plugins by name and hooks, and what the config set
// in process.env (a config may set a variable that .env files expand).
const configHooks = `
// The config's module is the config file's own URL with its bundled text in the query: its
// imports resolve from its folder, and its stack frames (through the inline source map)
// name the file as written.
export async function load(url, context, next) {
  const at = url.indexOf("?miniapp-config=");
  if (url.startsWith("file:") && at >= 0) {
    return { format: "module", source: decodeURIComponent(url.slice(at + "?miniapp-config=".length)), shortCircuit: true };
  }
  return next(url, context);
}`;
register("data:text/javascript," + encodeURIComponent(configHooks));
process.setSourceMapsEnabled?.(true);

// Under Node's permission model (bundle's fence where the kernel's is off: permission.go), the
// hooks above run on a worker thread, which Node starts only with --allow-worker; and a worker
// started with execArgv: [] has no permissions at all. With the hooks' thread running, no
// other worker starts, and module.register is gone
// (undefined, as in a runtime without it: @tailwindcss/node then registers none of its own,
// which reload a plugin's imports when bundle dev recompiles): hooks of the app's would run on the
// hooks' thread, where neither this block nor the fs guards are (a worker started there
// escaped the model, and a link inside the root that leads out was read through, as the model
// follows links).
if (process.permission) {
  workerThreads.Worker = function Worker() {
    throw Object.assign(new Error("Access to this API has been restricted"), { code: "ERR_ACCESS_DENIED", permission: "WorkerThreads" });
  };
}

// No code of the app's registers module hooks, fenced or not (what a config gives does not
// depend on the fence; under Node's permission model the hooks' thread escaped it): a call of
// module.register or module.registerHooks is refused where it is made, however the app's
// code reached node:module (an import, which the Go side's bundling of the config named
// before, createRequire's require, process.getBuiltinModule, an import() of a computed name),
// or with no caller of its own (a promise's then, a timer). A package's call as Node loads it
// (Tailwind CSS's, at the top of its module) is Node's: under Node's permission model there is
// none, and it does nothing, as Tailwind's register?.() skipped where register was undefined.
// A package's call at any other time (a timer's, a promise's, a function the config calls) is
// the app's code registering hooks, and refused as the config's is, at the package's line.
{
  // Every function these call was taken before the app's code ran (the runner's primordials
  // above): a config that replaced String.prototype.startsWith or includes, Array's methods or
  // Error made its own call look like a package's as Node loads it.
  const appFrame = (name) => {
    if (StringPrototypeStartsWith(name, "file:")) {
      if (StringPrototypeIncludes(name, "?miniapp-config=")) return true;
      const q = StringPrototypeIndexOf(name, "?");
      name = fileURLToPathRaw(q < 0 ? name : StringPrototypeSlice(name, 0, q));
    }
    // A package's file is in a node_modules folder inside the root (vm's code may be given any
    // name: one outside is the app's).
    if (!pathIsAbsolute(name) || !inRoot(name)) return true;
    const parts = splitOn(name, pathSep);
    for (let i = 0; i < parts.length; i++) if (parts[i] === "node_modules") return false;
    return true;
  };
  // packageLoading: the caller of fn is a package's module as Node's loader evaluates it, by
  // the three frames nearest (sitesOf: whatever the app set Error.stackTraceLimit to, and
  // however deep or async the code that imported the package): the top-level code of a file
  // of a package (a function with no name that encloses its whole file, in a node_modules
  // folder inside the root), called by the function of Node's loader that runs a module's code
  // (nodeLoader), the CommonJS loader's Module._compile called by the loader itself, which read
  // the file (Module._compile called by the app's code runs the code it is given, under any
  // name), or the ES module job. What is below the loader (the config that imported the
  // package, a timer, Node's task queue) does not matter: a package's top-level code runs as
  // Node loads it, whoever asked for it.
  const packageLoading = (fn) => {
    const sites = sitesOf(fn, 3);
    if (sites === null || sites.length < 2) return false;
    const top = sites[0], f = site.file(top);
    if (typeof f !== "string" || f === "" || StringPrototypeStartsWith(f, "node:") || appFrame(f)) return false;
    if (site.name(top) !== null || site.line(top) !== 1 || site.column(top) !== 1) return false; // a function of the file's, not its top level
    if (nodeLoader.is(sites[1], nodeLoader.job)) return true;
    return nodeLoader.is(sites[1], nodeLoader.compile) && sites.length > 2 && nodeLoader.is(sites[2], { ...nodeLoader.compile, name: undefined }) && site.name(sites[2]) !== nodeLoader.compile.name;
  };
  for (const name of ["register", "registerHooks"]) {
    const node = Module[name];
    if (typeof node !== "function") continue;
    const open = process.permission ? undefined : node;
    const f = { [name](...args) {
      if (!packageLoading(f[name])) {
        const e = new NativeError("module." + name + " registers loader hooks, which bundle does not run");
        stackOf(e, f[name]);
        ObjectDefineProperty(e, "refusal", { __proto__: null, value: { by: "checks", what: "hooks" }, writable: true, enumerable: true, configurable: true });
        throw e;
      }
      return open === undefined ? undefined : ReflectApply(open, this, args);
    } };
    Module[name] = f[name];
  }
  syncBuiltinESMExports();
}

// messageOf is an error's message, and for what Node's permission model refused, what and why.
function messageOf(e) {
  const m = StringCtor(e?.message ?? e);
  if (e?.code !== "ERR_ACCESS_DENIED" || !e.permission) return m;
  return `${m} (${e.permission}${e.resource ? " " + e.resource : ""}): Node's permission model, bundle's fence where the kernel's is off, lets the app's code read only ${root}, write only its temporary folder, and start no program or worker`;
}

function describe(v, seen = new Set()) {
  if (v === undefined) return { undefined: true };
  if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  if (typeof v === "bigint") return String(v);
  if (typeof v === "function") return { function: v.name || true };
  if (v instanceof RegExp) return { regex: v.source, flags: v.flags };
  if (typeof v !== "object" || seen.has(v)) return { unreadable: true };
  seen.add(v);
  if (Array.isArray(v)) return v.map((x) => describe(x, seen));
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k] = describe(x, seen);
  return out;
}

// plugins flattens Vite's plugin option (arrays at any depth, promises, false and null
// left out) to each plugin's name and the hooks it has.
async function plugins(list) {
  const out = [];
  const walk = async (p) => {
    p = await p;
    if (!p) return;
    if (Array.isArray(p)) {
      for (const q of p) await walk(q);
      return;
    }
    const hooks = Object.keys(p).filter((k) => typeof p[k] === "function" || (p[k] && typeof p[k].handler === "function"));
    out.push({ name: String(p.name ?? "(unnamed)"), hooks, apply: typeof p.apply === "string" ? p.apply : undefined });
  };
  await walk(list);
  return out;
}

// loadConfig imports the bundled config (once per process: the module is cached by its URL)
// and returns what it gives for a build.
async function loadConfig(file, code) {
  const url = pathToFileURL(file).href + "?miniapp-config=" + encodeURIComponent(code);
  let mod;
  try {
    mod = await import(url);
  } catch (e) {
    throw configError(e, file);
  }
  let config = mod.default;
  try {
    config = await (typeof config === "function" ? config({ command: "build", mode: "production", isSsrBuild: false, isPreview: false }) : config);
  } catch (e) {
    throw configError(e, file);
  }
  if (config === null || typeof config !== "object") throw new Error(`the config must export an object or a function that returns one, not ${config === null ? "null" : typeof config}`);
  return config;
}

// scopednames calls the config's css.modules.generateScopedName function, as postcss-modules
// does, for each local name of a CSS Module: (name, the file's path, its CSS).
async function scopednames({ file, css: code, options }) {
  const config = await loadConfig(file, code);
  const fn = config.css?.modules?.generateScopedName;
  if (typeof fn !== "function") throw new Error("css.modules.generateScopedName is not a function");
  const { filename, source, names } = options;
  const out = [];
  for (const n of names) {
    let v;
    try {
      v = fn(n, filename, source);
    } catch (e) {
      throw configError(e, file);
    }
    if (typeof v !== "string" || v === "") throw configError(new Error(`css.modules.generateScopedName returned ${JSON.stringify(v)} for ${n}, not a class name`), file);
    out.push(v);
  }
  return { css: JSON.stringify(out) };
}

async function viteconfig({ file, css: code }) {
  const before = { ...process.env };
  const config = await loadConfig(file, code);
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (before[k] !== v) env[k] = v;
  const out = describe({ ...config, plugins: undefined, worker: { ...config.worker, plugins: undefined } });
  out.plugins = await plugins(config.plugins);
  out.workerPlugins = typeof config.worker?.plugins === "function" ? await plugins(await config.worker.plugins()) : await plugins(config.worker?.plugins);
  out.env = env;
  return { css: JSON.stringify(out) };
}

// refusalOf says which fence refused what an error (or an error it was caused by, as fetch's
// "fetch failed" by its socket's) tried: {by: "checks" (the runner's own), "model" (Node's
// permission model) or "kernel" (the kernel's fence around Node, whose refusal is an EACCES
// or EPERM of the system call), what: "read", "write", "file" (the kernel's open, either),
// "program", "worker", "socket" or "other"}; undefined for an error no fence made.
function refusalOf(e) {
  for (let x = e, i = 0; x != null && typeof x === "object" && i < 8; x = x.cause, i++) {
    if (x.refusal) return x.refusal;
    if (x.code === "ERR_ACCESS_DENIED") {
      const what = { FileSystemRead: "read", FileSystemWrite: "write", ChildProcess: "program", WorkerThreads: "worker" }[x.permission] ?? "other";
      return { by: "model", what };
    }
    if (kernelFence && (x.code === "EACCES" || x.code === "EPERM")) {
      const call = StringCtor(x.syscall ?? "");
      const what = StringPrototypeStartsWith(call, "spawn") ? "program" : call === "connect" || call === "bind" || call === "listen" || call === "send" ? "socket" : "file";
      return { by: "kernel", what };
    }
  }
  return undefined;
}

// addonLoadRefused is the refusal of a package whose native addon did not load inside the
// kernel's fence because its loader was refused what the fence keeps from the app's code
// (@swc/core 1.16 reads the machine's mount table, /proc/self/mountinfo, which names the
// builder's folders, and says "Failed to load native binding"): inside that fence, the error
// (or one it was caused by, at any depth, a list of causes too) is what an addon's
// initialization threw as Node loaded its .node file from a node_modules folder inside the root
// (the runner's dlopen says which file: addonThrew), whatever its text. It names the package
// that threw (its frame's, @swc/core's loader), else the addon's (kernelOnly).
function addonLoadRefused(e) {
  if (!kernelFence) return undefined;
  const threw = (x, depth = 0) => {
    if (x === null || typeof x !== "object" || depth > 8) return undefined;
    if (Array.isArray(x)) return x.map((y) => threw(y, depth + 1)).find((f) => f !== undefined);
    return addonThrew.get(x) ?? threw(x.cause, depth + 1);
  };
  const addon = threw(e);
  const inPackages = (f) => {
    const parts = splitOn(f, pathSep);
    for (let i = 0; i < parts.length; i++) if (parts[i] === "node_modules") return true;
    return false;
  };
  if (addon === undefined || !inPackages(addon)) return undefined;
  // The first frame of the stack, past its first line (the message).
  const stack = StringCtor(e?.stack ?? ""), nl = StringPrototypeIndexOf(stack, "\n");
  const f = stackPlace(nl < 0 ? "" : StringPrototypeSlice(stack, nl + 1), () => true)?.file;
  e.kernelOnly = addonPackage(f && inPackages(f) && inRoot(f) ? f : addon);
  return { by: "kernel", what: "addon-load" };
}

// stackPlace is the place ({file, line, column}) of the first frame of stack (an error's, its
// source maps applied) whose file ok takes; undefined for none. A frame of eval's code is none.
function stackPlace(stack, ok) {
  const lines = splitOn(StringCtor(stack ?? ""), "\n");
  for (let i = 0; i < lines.length; i++) {
    const m = RegExpPrototypeExec(framePlaceRE, StringPrototypeTrim(lines[i]));
    if (m === null || StringPrototypeIncludes(m[1], "[eval")) continue;
    const f = StringPrototypeStartsWith(m[1], "file://") ? fileURLToPathRaw(m[1]) : m[1];
    if (ok(f)) return { __proto__: null, file: f, line: +m[2], column: +m[3] };
  }
  return undefined;
}
const framePlaceRE = /\(?((?:file:\/\/)?\/[^():?]+)(?:\?\S*?)?:(\d+):(\d+)\)?\s*$/;

// configError gives a config's failure its place: the first frame of the stack in the config
// (the source map names it), or for a package it could not import, that package.
function configError(e, file) {
  const missing = RegExpPrototypeExec(/Cannot find (?:package|module) '([^']+)'/, StringCtor(e?.message));
  let text;
  if (missing !== null && (e.code === "ERR_MODULE_NOT_FOUND" || e.code === "MODULE_NOT_FOUND")) {
    const spec = missing[1];
    const url = RegExpPrototypeExec(/^file:/i, spec) !== null;
    if (StringPrototypeStartsWith(spec, "/") || url) {
      // An absolute path or file: URL (an import() of a value): said the same whether it is
      // outside the root, missing, or both (it was " is not installed", with no place), by
      // its path (Node names a missing one so, the resolve hook one outside by its URL).
      let f = spec;
      try {
        if (url) f = fileURLToPathRaw(spec);
      } catch {}
      text = `${f} cannot be imported: bundle lets a vite.config import only files inside ${root}, and those that are there`;
    } else {
      const parts = splitOn(spec, "/");
      const name = StringPrototypeStartsWith(spec, "@") && parts.length > 1 ? `${parts[0]}/${parts[1]}` : parts[0];
      if (!StringPrototypeStartsWith(name, ".")) {
        const err = new NativeError(`${name} is not installed`);
        put(err, "missing", name);
        return err;
      }
    }
  }
  // What a fence refused is said by the caller, which names the fence and the fix.
  const refusal = refusalOf(e) ?? addonLoadRefused(e);
  const err = new NativeError(text ?? (refusal && e?.code === "ERR_ACCESS_DENIED" ? `${e.message} (${e.permission}${e.resource ? " " + e.resource : ""})` : messageOf(e)));
  if (refusal) put(err, "refusal", refusal);
  if (e?.kernelOnly) put(err, "kernelOnly", e.kernelOnly);
  const dir = pathDirname(file);
  // A module an import() of the config's could not load: its place is the call's (importedAt,
  // viteconfig.go's placedImportHelper), not the loader's stack. A refused module.register's
  // is its call's, a package's file (anywhere inside the root) too: the call is the fault.
  const packages = `${pathSep}node_modules${pathSep}`;
  const place = stackPlace(e?.importedAt ?? e?.stack, refusal?.what === "hooks" ? inRoot : (f) => within(f, dir) && !StringPrototypeIncludes(f, packages));
  if (place) {
    put(err, "file", place.file);
    put(err, "line", place.line);
    put(err, "column", place.column);
  }
  if (!err.file) put(err, "file", file);
  return err;
}

// ---- Frameworks: Vue single-file components, Svelte components and Solid's JSX, each with the
// app's own compiler, as @vitejs/plugin-vue, @sveltejs/vite-plugin-svelte and vite-plugin-solid
// run them for a production build. Each reads its file (inside the root) and answers
//   {id, js, loader, css, warnings: [{message, file, line, column}], map?}
// js in the loader named ("js" or "ts"); css the component's styles ("" for none); map, when
// the request asks for it (map: true), js's source map to the file, as JSON. A compiler
// of a major version the code here does not speak is refused: {error: {message, want}}, want
// the package and range to install.

// pkgOf returns the package.json (parsed, with its folder) of the package name, from a file
// the resolver found inside it.
function pkgOf(file, name) {
  for (let d = path.dirname(file); path.dirname(d) !== d; d = path.dirname(d)) {
    try {
      const pj = JSON.parse(fs.readFileSync(path.join(d, "package.json"), "utf8"));
      if (pj.name === name) return { ...pj, dir: d };
    } catch {}
  }
  return null;
}

// compiler loads the module spec of the package name, whose major version must be one of
// majors, and at least min ([major, minor]) where given (want is the range to install
// otherwise); it returns the module and the package.
async function compiler(spec, name, majors, want, min) {
  const file = find(spec, cwd);
  if (file === null) throw Object.assign(new Error(`${name} is not installed`), { missing: name, want: `${name}@${want}` });
  const pj = pkgOf(file, name);
  const [major, minor] = String(pj?.version ?? "").split(".").map(Number);
  if (!majors.includes(major) || (min && (major < min[0] || (major === min[0] && minor < min[1])))) {
    throw Object.assign(new Error(`${name} ${pj?.version ?? "(no version)"} is installed, and bundle runs the compiler of ${name} ${want}`), { want: `${name}@${want}` });
  }
  let m;
  try {
    m = await import(pathToFileURL(file).href);
  } catch (e) {
    throw crashed(e, pj ?? { name, version: "(no version)" }); // the compiler's module does not load
  }
  return { mod: m.default && typeof m.default === "object" ? { ...m.default, ...m } : m, pkg: pj };
}

// fault is the runner's word on what a compiler did wrong (gave no code, ended Node), said as
// it is where a compiler's own error is said with its name.
const fault = (message) => Object.assign(new Error(message), { fault: true });

// codeOf is the code a compiler answered (r.js.code, or r.code for Babel), or its fault.
function codeOf(r, pkg, babel) {
  const code = babel ? r?.code : r?.js?.code;
  if (typeof code !== "string") throw crashed(fault("it gave no code"), pkg);
  return code;
}

// located is an error at a place of file (line 1-based, column 1-based).
const located = (message, file, line, column, note) => Object.assign(new Error(message), { place: { file, line, column }, note });

// firstLine is a compiler's message without the code frame or links it appends.
const firstLine = (m) => StringPrototypeTrim(splitOn(StringCtor(m), "\n")[0]);

// crashed is what a compiler threw that is not a refusal of the component (which has its
// place) nor a package to install: the compiler's own fault, named with its version.
const crashed = (e, pkg) =>
  e?.place || e?.missing || e?.want || e?.outside || e?.crashed
    ? e
    : Object.assign(new Error(e?.fault ? e.message : firstLine(`${e?.name ?? "Error"}: ${e?.message ?? e}`)), { crashed: `${pkg?.name} ${pkg?.version}` });

async function vue(req) {
  // 3.3 is the first whose compileScript names the component (genDefaultAs).
  const { mod: sfc, pkg } = await compiler("vue/compiler-sfc", "vue", [3], "^3.3.0", [3, 3]);
  try {
    watchFrames(find("vue/compiler-sfc", cwd));
    return await compileVue(sfc, req);
  } catch (e) {
    throw crashed(e, pkg);
  }
}

async function compileVue(sfc, { file, map: wantMap, options: styleConfig }) {
  const src = fs.readFileSync(file, "utf8");
  // The component's id, as @vitejs/plugin-vue makes it for a production build: a hash of
  // its path (from the root, the same on every machine) and its source.
  const rel = path.relative(root, file).split(path.sep).join("/");
  const id = createHash("sha256").update(rel + "\n" + src).digest("hex").slice(0, 8);
  const { descriptor, errors } = sfc.parse(src, { filename: file, sourceMap: false });
  if (errors.length > 0) throw vueError(errors[0], file);
  if (!descriptor.template && !descriptor.script && !descriptor.scriptSetup) {
    throw located("the component has no <template> and no <script>", file, 1, 1);
  }
  for (const b of [descriptor.template, descriptor.script, descriptor.scriptSetup, ...descriptor.styles]) {
    if (b?.src) throw located(`<${b.type} src="${b.src}"> is not supported: write the ${b.type} inside the component`, file, b.loc.start.line, b.loc.start.column);
  }
  if (descriptor.template?.lang) {
    throw located(`<template lang="${descriptor.template.lang}"> is not supported: write the template in HTML`, file, descriptor.template.loc.start.line, descriptor.template.loc.start.column);
  }
  const scoped = descriptor.styles.some((s) => s.scoped);
  const scopeId = `data-v-${id}`;
  const ts = [descriptor.script?.lang, descriptor.scriptSetup?.lang].some((l) => l === "ts" || l === "tsx");
  const templateOptions = { id, scoped, slotted: descriptor.slotted, isProd: true, filename: file, compilerOptions: { scopeId: scoped ? scopeId : undefined, isTS: ts } };
  // Types a <script setup> imports are read as TypeScript reads them: with the app's
  // typescript, where it has one.
  // Without one, what asked for it is a package to install (compiler-sfc's own loader, vue's
  // require("typescript"), said only "Please make sure TypeScript is installed").
  const tsFile = find("typescript", cwd);
  let tsMissing = false;
  if (typeof sfc.registerTS === "function") {
    sfc.registerTS(() => {
      if (tsFile) return createRequire(import.meta.url)(tsFile);
      tsMissing = true;
      throw new Error("Cannot find module 'typescript'");
    });
  }
  let code = "const _sfc_main = {};\n";
  let bindings, map;
  if (descriptor.script || descriptor.scriptSetup) {
    freshTypes(sfc);
    lastFrame = null;
    try {
      const s = sfc.compileScript(descriptor, {
        id, isProd: true, inlineTemplate: true, genDefaultAs: "_sfc_main", sourceMap: !!wantMap, templateOptions,
        fs: { fileExists: (f) => fs.existsSync(f), readFile: (f) => fs.readFileSync(f, "utf8"), realpath: (f) => realpath(f) },
      });
      code = s.content + "\n";
      bindings = s.bindings;
      map = s.map;
      for (const f of s.deps ?? []) typeDeps.set(f, digest(f));
    } catch (e) {
      if (tsMissing) throw Object.assign(new Error("typescript is not installed"), { missing: "typescript" });
      throw vueScriptError(e, sfc, descriptor, file);
    }
  }
  if (descriptor.template && !descriptor.scriptSetup) {
    const t = sfc.compileTemplate({
      ...templateOptions, source: descriptor.template.content, ast: descriptor.template.ast,
      compilerOptions: { ...templateOptions.compilerOptions, bindingMetadata: bindings },
    });
    if (t.errors.length > 0) throw vueError(t.errors[0], file);
    // The template's render function, named as @vitejs/plugin-vue names it.
    code += t.code.replace(/\nexport (function|const) (render|ssrRender)/, "\n$1 _sfc_$2") + "\n_sfc_main.render = _sfc_render;\n";
  }
  let css = "";
  const modules = {};
  const warnings = [];
  for (const style of descriptor.styles) {
    // A style in Sass, Less or Stylus is compiled as a stylesheet of that language is, before
    // Vue scopes it (as Vite's CSS plugin compiles @vitejs/plugin-vue's style module): by the
    // runner's tool, with the vite.config's css.preprocessorOptions (additionalData) and
    // resolve.alias, its imports read only inside the root.
    let source = style.content;
    let lang = style.lang;
    const tool = { scss: sass, sass, less, styl: stylus, stylus }[lang];
    if (tool) {
      const o = styleConfig?.options?.[lang];
      if (o?.refused) throw located(o.refused, file, style.loc.start.line, style.loc.start.column, o.note);
      try {
        source = (await tool({ file, source, lang, options: o, aliases: styleConfig?.aliases?.[lang === "less" ? "less" : "sass"] })).css;
      } catch (e) {
        throw inBlock(e, style, file);
      }
      lang = undefined;
    }
    const r = await sfc.compileStyleAsync({
      source, filename: file, id: scopeId, scoped: style.scoped, modules: !!style.module, isProd: true,
      preprocessLang: lang,
      preprocessCustomRequire: (name) => {
        const f = find(name, cwd);
        if (f === null) throw Object.assign(new Error(`${name} is not installed`), { missing: name });
        return createRequire(import.meta.url)(f);
      },
    });
    if (r.errors.length > 0) throw styleError(r.errors[0], style, file);
    css += r.code + "\n";
    if (style.module) modules[typeof style.module === "string" ? style.module : "$style"] = r.modules ?? {};
  }
  if (scoped) code += `_sfc_main.__scopeId = ${JSON.stringify(scopeId)};\n`;
  if (Object.keys(modules).length > 0) code += `_sfc_main.__cssModules = ${JSON.stringify(modules)};\n`;
  code += "export default _sfc_main;\n";
  return { js: code, loader: ts ? "ts" : "js", css, warnings, map: wantMap && map ? JSON.stringify(map) : undefined };
}

// typeDeps are the files whose types a <script setup> read (compileScript's deps: a type
// file, a tsconfig), each with a digest of its text when it was read. compiler-sfc keeps each
// file's types across compiles, and bundle dev's session keeps the runner, and so them, across
// rebuilds: freshTypes drops those of a file changed since (as @vitejs/plugin-vue's hot update
// calls invalidateTypeCache), before each compile.
const typeDeps = new Map();
const digest = (f) => {
  try {
    return createHash("sha256").update(fs.readFileSync(f)).digest("hex");
  } catch {
    return ""; // gone, or not to be read: its types are read anew
  }
};
function freshTypes(sfc) {
  if (typeof sfc.invalidateTypeCache !== "function") return;
  for (const [f, d] of typeDeps) {
    if (digest(f) === d && d !== "") continue;
    sfc.invalidateTypeCache(f);
    typeDeps.delete(f);
  }
}

// vueError places a compiler-core error (its loc is in the file: the template's AST is the
// descriptor's).
function vueError(e, file) {
  if (typeof e === "string") return located(e, file, 1, 1);
  const at = e.loc?.start;
  return at ? located(firstLine(e.message), file, at.line, at.column) : located(firstLine(e.message), file, 1, 1);
}

// compileScript's own errors (a second defineProps(), a type it cannot resolve) carry their
// place only in the code frame of their message, made by @vue/shared's generateCodeFrame from
// the source and the node's offsets: the runner wraps that function, in the instance
// compiler-sfc requires, to keep the last call's arguments (lastFrame), and places the error
// by them.
let lastFrame = null;
const framed = new WeakSet();
function watchFrames(sfcFile) {
  try {
    const main = createRequire(sfcFile).resolve("@vue/compiler-sfc");
    const shared = createRequire(main)("@vue/shared");
    if (framed.has(shared) || typeof shared.generateCodeFrame !== "function") return;
    const generate = shared.generateCodeFrame;
    shared.generateCodeFrame = function generateCodeFrame(source, start, end) {
      lastFrame = { source, start };
      return generate.apply(this, arguments);
    };
    framed.add(shared);
  } catch {} // no place but the <script> tag's, as before
}

// framePlace is the place lastFrame gives an error of compileScript: in the component, or in
// the file the message names (a type file's source), checked to hold that source.
function framePlace(e, descriptor, file) {
  const f = lastFrame;
  lastFrame = null;
  if (!f || typeof f.source !== "string" || typeof f.start !== "number") return null;
  let at = file;
  if (f.source !== descriptor.source) {
    // generateError's message: the text, a blank line, the file's name, the frame.
    const named = String(e?.message ?? "").split("\n")[2];
    if (!named || !path.isAbsolute(named) || !inRoot(named)) return null;
    try {
      if (fs.readFileSync(named, "utf8") !== f.source) return null;
    } catch {
      return null;
    }
    at = named;
  }
  const before = f.source.slice(0, Math.max(0, Math.min(f.start, f.source.length)));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return located(firstLine(e?.message ?? e).replace(/^\[@?vue\/compiler-sfc\] /, ""), at, line, column);
}

// vueScriptError places an error of compileScript: a template error (its loc in the file), a
// syntax error of a script block (Babel's position is in the block: the block that does not
// parse, parsed again with the same parser, says which), or compileScript's own (no place: at
// the <script setup> tag).
function vueScriptError(e, sfc, descriptor, file) {
  if (e?.loc?.start) return vueError(e, file);
  const framed = framePlace(e, descriptor, file);
  if (framed) return framed;
  const msg = firstLine(e?.message ?? e).replace(/^\[@?vue\/compiler-sfc\] /, "");
  for (const block of [descriptor.scriptSetup, descriptor.script]) {
    if (!block) continue;
    const plugins = block.lang === "ts" || block.lang === "tsx" ? ["typescript"] : [];
    if (block.lang === "tsx" || block.lang === "jsx") plugins.push("jsx");
    try {
      sfc.babelParse(block.content, { plugins, sourceType: "module" });
    } catch (pe) {
      if (!pe.loc) continue;
      const line = block.loc.start.line + pe.loc.line - 1;
      const column = (pe.loc.line === 1 ? block.loc.start.column - 1 : 0) + pe.loc.column + 1;
      return located(firstLine(pe.message).replace(/ \(\d+:\d+\)$/, ""), file, line, column);
    }
  }
  const b = descriptor.scriptSetup ?? descriptor.script;
  return located(msg, file, b.loc.start.line, b.loc.start.column);
}

// inBlock places an error a preprocessor gave at a place of the style block it compiled (as
// if the block were the file) in the component; one in another file stays there.
// An error with no place is at the block's start; a package to install stays as it is.
function inBlock(e, style, file) {
  if (e?.missing || e?.place || e?.kernelOnly) return e;
  const err = e instanceof Error ? e : new Error(String(e));
  if (typeof err.line !== "number") return Object.assign(err, { place: { file, line: style.loc.start.line, column: style.loc.start.column } });
  let { line, column = 1 } = err;
  if (err.file === undefined || err.file === file) {
    if (line === 1) column += style.loc.start.column - 1;
    line += style.loc.start.line - 1;
  }
  return Object.assign(err, { place: { file: err.file ?? file, line, column } });
}

// styleError places a style's error: a preprocessor's (Sass's span, PostCSS's line) is in the
// style block.
function styleError(e, style, file) {
  if (e?.missing) return e;
  const line = e?.span?.start ? e.span.start.line + 1 : e?.line;
  const column = e?.span?.start ? e.span.start.column + 1 : e?.column ?? 1;
  const msg = firstLine(e?.sassMessage ?? e?.reason ?? e?.message ?? e);
  if (!line) return located(msg, file, style.loc.start.line, style.loc.start.column);
  return located(msg, file, style.loc.start.line + line - 1, (line === 1 ? style.loc.start.column - 1 : 0) + column);
}

async function svelte({ file, map }) {
  const { mod, pkg } = await compiler("svelte/compiler", "svelte", [5], "^5.0.0");
  const src = fs.readFileSync(file, "utf8");
  let r;
  try {
    // As @sveltejs/vite-plugin-svelte compiles for a production build, its CSS emitted.
    r = mod.compile(src, { filename: file, generate: "client", dev: false, css: "external" });
  } catch (e) {
    if (e?.start?.line) {
      const [message, ...rest] = String(e.message).split("\n");
      throw located(message, file, e.start.line, e.start.column + 1, rest.join(" ").trim() || undefined);
    }
    throw crashed(e, pkg);
  }
  const code = codeOf(r, pkg);
  const warnings = (r.warnings ?? []).map((w) => ({ message: firstLine(w.message), file, line: w.start?.line ?? 0, column: (w.start?.column ?? 0) + 1 }));
  return { js: code, loader: "js", css: r.css?.code ?? "", warnings, map: map && r.js.map ? JSON.stringify(r.js.map) : undefined };
}

async function solid({ file, ts, map }) {
  const { mod: babel, pkg } = await compiler("@babel/core", "@babel/core", [7], "^7.20.0");
  const preset = find("babel-preset-solid", cwd);
  if (preset === null) throw Object.assign(new Error("babel-preset-solid is not installed"), { missing: "babel-preset-solid" });
  // The compiler is the preset, on Babel: a crash is named with both.
  const presetPkg = pkgOf(preset, "babel-preset-solid");
  if (String(presetPkg?.version ?? "").split(".")[0] !== "1") {
    throw Object.assign(new Error(`babel-preset-solid ${presetPkg?.version ?? "(no version)"} is installed, and bundle runs babel-preset-solid ^1.0.0`), { want: "babel-preset-solid@^1.0.0" });
  }
  const both = { name: `babel-preset-solid ${presetPkg.version} on @babel/core`, version: pkg?.version };
  const src = fs.readFileSync(file, "utf8");
  try {
    // As vite-plugin-solid: the app's Babel config not read, TypeScript's syntax kept for
    // esbuild to remove.
    const r = await babel.transformAsync(src, {
      filename: file, sourceFileName: file, babelrc: false, configFile: false, sourceMaps: !!map, compact: false,
      presets: [[preset, { generate: "dom", hydratable: false }]],
      parserOpts: { plugins: ts ? ["jsx", "typescript"] : ["jsx"] },
    });
    return { js: codeOf(r, both, true), loader: ts ? "ts" : "js", css: "", warnings: [], map: map && r.map ? JSON.stringify(r.map) : undefined };
  } catch (e) {
    if (e?.loc?.line) {
      const msg = firstLine(e.message).replace(file + ": ", "").replace(/ \(\d+:\d+\)$/, "");
      throw located(msg, file, e.loc.line, e.loc.column + 1);
    }
    // Babel names the file it was compiling first ("[BABEL] /app/C.tsx: "): the error is said at it.
    if (typeof e?.message === "string") e.message = e.message.replace(`[BABEL] ${file}: `, "");
    throw crashed(e, both);
  }
}

// svelteModule compiles a module that uses runes (name.svelte.js, or name.svelte.ts whose
// types the caller has removed: code), as @sveltejs/vite-plugin-svelte does.
async function svelteModule({ file, code, map }) {
  const { mod, pkg } = await compiler("svelte/compiler", "svelte", [5], "^5.0.0");
  try {
    const r = mod.compileModule(code, { filename: file, generate: "client", dev: false });
    const js = codeOf(r, pkg);
    const warnings = (r.warnings ?? []).map((w) => ({ message: firstLine(w.message), file, line: w.start?.line ?? 0, column: (w.start?.column ?? 0) + 1 }));
    return { js, loader: "js", css: "", warnings, map: map && r.js.map ? JSON.stringify(r.js.map) : undefined };
  } catch (e) {
    if (e?.start?.line) {
      const [message, ...rest] = String(e.message).split("\n");
      throw located(message, file, e.start.line, e.start.column + 1, rest.join(" ").trim() || undefined);
    }
    throw crashed(e, pkg);
  }
}

const frameworkTools = { vue, svelte, "svelte-module": svelteModule, solid };
// ---- end of frameworks

const tools = { postcss, tailwind, sass, less, stylus, viteconfig, scopednames, ...frameworkTools };

function failure(e) {
  // Its own properties, with no prototype: an assignment calls no setter the app put on
  // Object.prototype.
  const err = { __proto__: null, message: e?.reason != null ? StringCtor(e.reason) : messageOf(e) };
  if (e?.missing) err.missing = e.missing;
  if (e?.outside) err.outside = e.outside;
  if (e?.want) err.want = e.want;
  if (e?.spec) err.spec = e.spec;
  if (e?.note) err.note = e.note;
  if (e?.crashed) err.crashed = e.crashed;
  if (e?.refusal) err.refusal = e.refusal;
  if (!e?.refusal) {
    const r = addonLoadRefused(e); // a package the app's PostCSS config or a plugin loads
    if (r) err.refusal = r;
  }
  if (e?.kernelOnly) err.kernelOnly = e.kernelOnly;
  const at = (p) => {
    err.file = p.file;
    err.line = p.line;
    err.column = p.column;
    return err;
  };
  if (e?.place) return at(e.place);
  // A refused module.register (a PostCSS config's, a plugin's, a package's it loads) is placed
  // at its call, as a config's is (configError).
  const call = e?.refusal?.what === "hooks" && !e.file ? stackPlace(e.stack, inRoot) : undefined;
  if (call) return at(call);
  // PostCSS's CssSyntaxError, and Sass's exception with its span.
  if (e?.line) at(e);
  else if (e?.file) err.file = e.file;
  const span = e?.span;
  if (span?.start) {
    at({ file: span.url ? fileURLToPathRaw(span.url) : undefined, line: span.start.line + 1, column: span.start.column + 1 });
    err.message = e.sassMessage ?? err.message;
  }
  return err;
}

// The end of the input is the end of the runner (Close and Kill close it), whatever the app's
// code left running: a config that threw while a MessagePort of its own held the event loop
// kept Node, and so the build, waiting.
//
// What the app's code throws with no caller to catch it (a timer's callback, an unhandled
// rejection: a module.register refused in a setTimeout of a vite.config or a PostCSS plugin)
// is the failure of the request whose work set it off (the async context the timer or promise
// was made in), placed as that request's own errors are; Node goes on. Where no request's
// context holds it (a FinalizationRegistry's callback runs in none; the app's code may have
// cleared its context's store), it is the failure of every request in flight; with none in
// flight, Node stops (the Go side starts another for the next request). It is caught by
// Node's uncaught exception capture callback, which no listener the app adds, removes or puts
// first changes, and which the app may not replace; what still stops Node (a throwing
// uncaughtExceptionMonitor listener, process.exit, a crash) the Go side says as the failure
// of the requests in flight.
const answering = new AsyncLocalStorage();
// The instance's methods, its own, as they were: AsyncLocalStorage.prototype's run calls
// this.getStore and this._enable, which the app's code may replace on the prototype.
{
  const proto = AsyncLocalStorage.prototype;
  const names = ObjectGetOwnPropertyNames(proto);
  for (let i = 0; i < names.length; i++) {
    const d = Reflect.getOwnPropertyDescriptor(proto, names[i]);
    if (names[i] !== "constructor" && typeof d?.value === "function") ObjectDefineProperty(answering, names[i], { __proto__: null, value: d.value, writable: false, configurable: false });
  }
}
const answeringRun = uncurryThis(answering.run), answeringStore = uncurryThis(answering.getStore);
requestOf = () => answeringStore(answering);
const pending = { __proto__: null }; // id → fail(e): the requests not yet answered
const uncaught = (e) => {
  const id = answeringStore(answering);
  const fail = id === undefined ? undefined : pending[id];
  if (fail !== undefined) return fail(e);
  let any = false;
  for (const k in pending) {
    any = true;
    pending[k](e);
  }
  if (!any) {
    stderrWrite(stderr, `${e?.stack ?? e}\n`);
    exit(1);
  }
};
setCapture(uncaught);
// No code of the app's sets another (Node's own refuses to while one is set, as here: the
// app's would replace it by first setting null).
ObjectDefineProperty(process, "setUncaughtExceptionCaptureCallback", {
  __proto__: null, enumerable: true, configurable: false, writable: false,
  value: function setUncaughtExceptionCaptureCallback() {
    throw Object.assign(new NativeError("bundle's runner has set the uncaught exception capture callback, which the app's code may not replace"), { code: "ERR_UNCAUGHT_EXCEPTION_CAPTURE_ALREADY_SET" });
  },
});
// A tool's process.exit (a compiler's, a config's, a plugin's) ended Node, and with it every
// request and the warm compilers of bundle dev's session: it throws, where it is called, what
// the request's other errors are (a compiler's crash, named with its version), and Node goes
// on. One with no request to fail ends Node, as before.
process.exit = function (code) {
  const id = answeringStore(answering);
  if (id === undefined || pending[id] === undefined) return exit(code);
  throw fault(`it ended Node (exit code ${code ?? process.exitCode ?? 0})`);
};
// writeAnswer writes one answer line whole to the answers' pipe (file descriptor 4).
const writeAnswer = (text) => {
  const b = bufferFrom(text);
  for (let off = 0; off < b.length; ) off += writeRaw(ANSWERS, b, off, b.length - off);
};
// noteRunning tells the Go side, before the answer, which at-rule's code the request's tool
// runs now (running: {rule, spec}), or that it returned ({rule: "", spec: ""}): a note line.
const noteRunning = (id, running) => writeAnswer(key + JSONStringify({ id, running }) + "\n");
// key is the first line of the input: the runner's answers start with it, and the Go side
// takes no other line for one (what the app's code writes on stdout, console.log's too, is
// no answer, however it is made).
let key = null;
// The requests are read from a stream of the runner's own on file descriptor 3, which no app
// code holds: process.stdin, whose listeners a config removed (removeAllListeners("data"), and
// every later request waited for ever), is an empty stream, as for a program given no input.
const input = new net.Socket({ fd: REQUESTS, readable: true, writable: false });
{
  const none = new Readable({ read() { this.push(null); } });
  ObjectDefineProperty(process, "stdin", { __proto__: null, get: () => none, enumerable: true, configurable: false });
}
readline.createInterface({ input }).on("close", () => exit(0)).on("line", async (line) => {
  if (key === null) {
    key = line;
    // The Go side tells a Node that stopped before it could run a request (its own failure)
    // from one that the app's code stopped by this line.
    writeAnswer(key + JSONStringify({ ready: true }) + "\n");
    return;
  }
  let req;
  let answered = false;
  const answer = (out) => {
    if (answered) return; // failed by what its code threw later, or answered before it did
    answered = true;
    if (req?.id !== undefined) delete pending[req.id];
    writeAnswer(key + JSONStringify({ id: req?.id, ...out }) + "\n");
  };
  try {
    req = JSONParse(line);
    // A config's throw is placed in the config (configError), a tool's as the tool's are.
    const config = req.tool === "viteconfig" || req.tool === "scopednames";
    pending[req.id] = (e) => answer({ error: failure(config ? configError(e, req.file) : e) });
    const out = await answeringRun(answering, req.id, () => tools[req.tool](req));
    answer(out);
  } catch (e) {
    answer({ error: failure(e) });
  }
});
