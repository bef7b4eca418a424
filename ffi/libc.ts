/**
 * The few libc calls Deno does not offer: the peer credentials of a Unix socket and the
 * process's user id. Loaded on first use with `Deno.dlopen`, so `--allow-ffi` is needed only
 * by programs that call them.
 *
 * Linux: `getsockopt(SO_PEERCRED)` gives the peer's pid, uid and gid. macOS:
 * `getpeereid()` gives uid and gid, and `getsockopt(LOCAL_PEERPID)` the pid. Other systems
 * get an error that says peer credentials are not supported there.
 *
 * @module
 */

/** Who is at the other end of a Unix socket, as the kernel reports it. */
export interface PeerCredentials {
  /** The peer's process id. */
  pid: number;
  /** The user id the peer runs as. */
  uid: number;
  /** The group id the peer runs as. */
  gid: number;
}

const LINUX_SOL_SOCKET = 1;
const LINUX_SO_PEERCRED = 17;
const DARWIN_SOL_LOCAL = 0;
const DARWIN_LOCAL_PEERPID = 2;

const symbols = {
  getsockopt: { parameters: ["i32", "i32", "i32", "buffer", "buffer"], result: "i32" },
  getuid: { parameters: [], result: "u32" },
} as const;

const darwinSymbols = {
  ...symbols,
  getpeereid: { parameters: ["i32", "buffer", "buffer"], result: "i32" },
} as const;

type Libc = Deno.DynamicLibrary<typeof darwinSymbols>["symbols"];

let libc: Libc | null = null;

function libraryPath(): string {
  switch (Deno.build.os) {
    case "linux":
      return "libc.so.6";
    case "darwin":
      return "/usr/lib/libSystem.B.dylib";
    default:
      throw new Error(
        `peer credentials are not supported on ${Deno.build.os}: CrownUI's agent server needs Linux or macOS`,
      );
  }
}

function load(): Libc {
  if (libc !== null) return libc;
  const path = libraryPath();
  try {
    const library = Deno.build.os === "darwin"
      ? Deno.dlopen(path, darwinSymbols)
      : Deno.dlopen(path, symbols);
    libc = library.symbols as Libc;
    return libc;
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      throw new Error(
        "cannot read peer credentials without FFI: run with --allow-ffi",
        { cause: error },
      );
    }
    throw error;
  }
}

/** The real user id of this process. */
export function getuid(): number {
  return load().getuid();
}

/** Reads the credentials of the peer connected to the Unix socket with descriptor `fd`. */
export function peerCredentials(fd: number): PeerCredentials {
  if (!Number.isInteger(fd) || fd < 0) {
    throw new TypeError(`peerCredentials() needs a socket's file descriptor, got ${fd}`);
  }
  const lib = load();
  if (Deno.build.os === "darwin") {
    const uid = new Uint32Array(1);
    const gid = new Uint32Array(1);
    if (lib.getpeereid(fd, uid, gid) !== 0) {
      throw new Error(`getpeereid() failed on descriptor ${fd}`);
    }
    const pid = new Int32Array(1);
    const length = new Uint32Array([4]);
    const pidFound = lib.getsockopt(fd, DARWIN_SOL_LOCAL, DARWIN_LOCAL_PEERPID, pid, length) === 0;
    return { pid: pidFound ? pid[0]! : 0, uid: uid[0]!, gid: gid[0]! };
  }
  const ucred = new Int32Array(3); // struct ucred { pid_t pid; uid_t uid; gid_t gid; }
  const length = new Uint32Array([12]);
  if (lib.getsockopt(fd, LINUX_SOL_SOCKET, LINUX_SO_PEERCRED, ucred, length) !== 0) {
    throw new Error(`getsockopt(SO_PEERCRED) failed on descriptor ${fd}`);
  }
  return { pid: ucred[0]!, uid: ucred[1]! >>> 0, gid: ucred[2]! >>> 0 };
}
