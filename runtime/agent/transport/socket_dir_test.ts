import assert from "node:assert/strict";
import { join } from "node:path";
import { getuid } from "../../../ffi/mod.ts";
import * as net from "node:net";
import {
  checkSocketDirectory,
  checkSocketFile,
  fileIdentity,
  parseSocketFileName,
  prepareSocketDirectory,
  socketDirectory,
  SocketDirectoryError,
  socketEnv,
  socketNameFor,
  socketPathFor,
} from "./socket_dir.ts";

Deno.test("socketNameFor()", async (t) => {
  await t.step("socketNameFor() lower-cases and replaces spaces", () => {
    assert.equal(socketNameFor("My Notes"), "my-notes");
  });

  await t.step("socketNameFor() keeps Unicode letters and replaces punctuation", () => {
    assert.equal(socketNameFor("Ünïcode App!"), "ünïcode-app-");
  });

  await t.step(
    "socketNameFor() keeps digits of any script and replaces each other character",
    () => {
      assert.equal(socketNameFor("Notes 2"), "notes-2");
      assert.equal(socketNameFor("数独 ٣"), "数独-٣");
      assert.equal(socketNameFor("a/b\\c..d"), "a-b-c--d");
      assert.equal(socketNameFor("a\nb"), "a-b");
    },
  );

  await t.step("socketNameFor() replaces an emoji by one dash, not one per UTF-16 unit", () => {
    assert.equal(socketNameFor("Chat 💬"), "chat--");
  });
});

Deno.test("socketDirectory()", async (t) => {
  await t.step("socketDirectory() uses $XDG_RUNTIME_DIR/crownui when set", () => {
    assert.equal(
      socketDirectory(1000, { XDG_RUNTIME_DIR: "/run/user/1000", TMPDIR: "/var/tmp" }),
      "/run/user/1000/crownui",
    );
  });

  await t.step("socketDirectory() falls back to $TMPDIR/crownui-<uid> when XDG is unset", () => {
    assert.equal(socketDirectory(1000, { TMPDIR: "/var/tmp" }), "/var/tmp/crownui-1000");
    assert.equal(
      socketDirectory(1000, { XDG_RUNTIME_DIR: undefined, TMPDIR: "/var/tmp" }),
      "/var/tmp/crownui-1000",
    );
  });

  await t.step("socketDirectory() treats an empty XDG_RUNTIME_DIR as unset", () => {
    assert.equal(
      socketDirectory(42, { XDG_RUNTIME_DIR: "", TMPDIR: "/var/tmp" }),
      "/var/tmp/crownui-42",
    );
  });

  await t.step("socketDirectory() uses /tmp when TMPDIR is unset or empty", () => {
    assert.equal(socketDirectory(7, {}), "/tmp/crownui-7");
    assert.equal(socketDirectory(7, { XDG_RUNTIME_DIR: "", TMPDIR: "" }), "/tmp/crownui-7");
  });

  await t.step("socketEnv() reads both variables from the environment", () => {
    const saved = { xdg: Deno.env.get("XDG_RUNTIME_DIR"), tmp: Deno.env.get("TMPDIR") };
    try {
      Deno.env.set("XDG_RUNTIME_DIR", "/run/user/4242");
      Deno.env.delete("TMPDIR");
      assert.equal(socketEnv().XDG_RUNTIME_DIR, "/run/user/4242");
      assert.equal(socketEnv().TMPDIR, undefined);
      assert.equal(socketDirectory(4242), "/run/user/4242/crownui");
      Deno.env.delete("XDG_RUNTIME_DIR");
      Deno.env.set("TMPDIR", "/scratch");
      assert.equal(socketDirectory(4242), "/scratch/crownui-4242");
    } finally {
      for (const [name, value] of [["XDG_RUNTIME_DIR", saved.xdg], ["TMPDIR", saved.tmp]]) {
        if (value === undefined) Deno.env.delete(name!);
        else Deno.env.set(name!, value);
      }
    }
  });
});

Deno.test("socketPathFor() and parseSocketFileName()", async (t) => {
  await t.step("socketPathFor() names the file <name>-<pid>.sock", () => {
    assert.equal(socketPathFor("/run/x", "My Notes", 4242), "/run/x/my-notes-4242.sock");
  });

  await t.step("parseSocketFileName() splits at the last dash", () => {
    assert.deepEqual(parseSocketFileName("my-notes-4242.sock"), {
      app: "my-notes-4242",
      name: "my-notes",
      pid: 4242,
    });
    assert.deepEqual(parseSocketFileName("ünïcode-app--7.sock"), {
      app: "ünïcode-app--7",
      name: "ünïcode-app-",
      pid: 7,
    });
  });

  await t.step("parseSocketFileName() reads back what socketPathFor() wrote", () => {
    for (const title of ["Notes", "My Notes", "Ünïcode App!", "2048", "a-1"]) {
      const fileName = socketPathFor("/d", title, 31337).slice("/d/".length);
      assert.deepEqual(parseSocketFileName(fileName), {
        app: `${socketNameFor(title)}-31337`,
        name: socketNameFor(title),
        pid: 31337,
      });
    }
  });

  await t.step("parseSocketFileName() refuses other file names", () => {
    for (
      const fileName of [
        "notes.sock",
        "notes-.sock",
        "-42.sock",
        "notes-42.socket",
        "notes-42.sock.bak",
        "notes-abc.sock",
        "notes-0.sock",
        "notes-99999999999999999999.sock",
        "",
      ]
    ) {
      assert.equal(parseSocketFileName(fileName), null, fileName);
    }
  });
});

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "crownui-socket-dir-test-" });
}

function modeOf(path: string): number {
  return (Deno.lstatSync(path).mode ?? 0) & 0o777;
}

function refusal(directory: string, uid: number): SocketDirectoryError {
  try {
    prepareSocketDirectory(directory, uid);
  } catch (error) {
    assert.ok(error instanceof SocketDirectoryError, `not a SocketDirectoryError: ${error}`);
    return error;
  }
  assert.fail(`prepareSocketDirectory(${directory}) accepted it`);
}

Deno.test("prepareSocketDirectory()", async (t) => {
  const uid = getuid();
  const root = await tempDir();
  try {
    await t.step("prepareSocketDirectory() creates a missing directory with mode 0700", () => {
      const directory = join(root, "created", "crownui");
      prepareSocketDirectory(directory, uid);
      const info = Deno.lstatSync(directory);
      assert.ok(info.isDirectory);
      assert.equal(modeOf(directory), 0o700);
      assert.equal(info.uid, uid);
    });

    await t.step("prepareSocketDirectory() accepts an existing 0700 directory twice", () => {
      const directory = join(root, "existing");
      Deno.mkdirSync(directory);
      Deno.chmodSync(directory, 0o700);
      prepareSocketDirectory(directory, uid);
      prepareSocketDirectory(directory, uid);
      assert.equal(modeOf(directory), 0o700);
    });

    await t.step("prepareSocketDirectory() refuses a symlink, even to a good directory", () => {
      const target = join(root, "target");
      Deno.mkdirSync(target);
      Deno.chmodSync(target, 0o700);
      const link = join(root, "link");
      Deno.symlinkSync(target, link);
      const error = refusal(link, uid);
      assert.equal(error.name, "SocketDirectoryError");
      assert.match(error.message, /is a symlink/);
      assert.ok(error.message.includes(link), error.message);
    });

    await t.step("prepareSocketDirectory() refuses a dangling symlink and creates nothing", () => {
      const target = join(root, "nowhere");
      const link = join(root, "dangling");
      Deno.symlinkSync(target, link);
      assert.match(refusal(link, uid).message, /is a symlink/);
      assert.throws(() => Deno.lstatSync(target), Deno.errors.NotFound);
    });

    for (const mode of [0o755, 0o770, 0o701, 0o707]) {
      const octal = mode.toString(8).padStart(4, "0");
      await t.step(`prepareSocketDirectory() refuses mode ${octal} and leaves it alone`, () => {
        const directory = join(root, `mode-${octal}`);
        Deno.mkdirSync(directory);
        Deno.chmodSync(directory, mode);
        const error = refusal(directory, uid);
        assert.ok(error.message.includes(`has mode ${octal}`), error.message);
        assert.match(error.message, /closed to group and others \(0700\)/);
        assert.equal(modeOf(directory), mode);
      });
    }

    await t.step("prepareSocketDirectory() refuses a directory another uid owns", () => {
      const directory = join(root, "foreign");
      Deno.mkdirSync(directory);
      Deno.chmodSync(directory, 0o700);
      Deno.chownSync(directory, 65534, 65534);
      const error = refusal(directory, uid);
      assert.match(error.message, /belongs to uid 65534, not to this user/);
      assert.ok(error.message.includes(`uid ${uid}`), error.message);
    });

    await t.step("prepareSocketDirectory() checks the owner against the uid it is given", () => {
      const directory = join(root, "mine");
      prepareSocketDirectory(directory, uid);
      assert.match(refusal(directory, uid + 1).message, /belongs to uid/);
    });

    await t.step("prepareSocketDirectory() refuses a file where the directory should be", () => {
      const file = join(root, "file");
      Deno.writeTextFileSync(file, "");
      Deno.chmodSync(file, 0o600);
      assert.match(refusal(file, uid).message, /is not a directory/);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("checkSocketDirectory() checks every directory above the socket directory", async (t) => {
  const uid = getuid();
  const root = await tempDir();
  const refusedBy = (directory: string): SocketDirectoryError => {
    try {
      checkSocketDirectory(directory, uid);
    } catch (error) {
      assert.ok(error instanceof SocketDirectoryError, `not a SocketDirectoryError: ${error}`);
      return error;
    }
    assert.fail(`checkSocketDirectory(${directory}) accepted it`);
  };
  try {
    await t.step("checkSocketDirectory() refuses a parent writable by others", () => {
      for (const mode of [0o777, 0o775, 0o757]) {
        const parent = join(root, `open-${mode.toString(8)}`);
        const directory = join(parent, "crownui");
        prepareSocketDirectory(directory, uid);
        Deno.chmodSync(parent, mode);
        const error = refusedBy(directory);
        assert.equal(error.path, directory);
        assert.equal(
          error.reason,
          `is inside ${parent}, which has mode 0${
            mode.toString(8)
          }: writable by others without the sticky bit, so the socket directory could be replaced`,
        );
        assert.throws(() => prepareSocketDirectory(directory, uid), SocketDirectoryError);
      }
    });

    await t.step("checkSocketDirectory() accepts a sticky parent such as /tmp", () => {
      const parent = join(root, "sticky");
      const directory = join(parent, "crownui");
      prepareSocketDirectory(directory, uid);
      Deno.chmodSync(parent, 0o1777);
      checkSocketDirectory(directory, uid);
    });

    await t.step("checkSocketDirectory() refuses a parent another uid owns", () => {
      const parent = join(root, "foreign-parent");
      const directory = join(parent, "crownui");
      prepareSocketDirectory(directory, uid);
      Deno.chownSync(parent, 65534, 65534);
      assert.match(
        refusedBy(directory).reason,
        new RegExp(`which belongs to uid 65534: neither root nor this user \\(uid ${uid}\\)`),
      );
    });

    await t.step("checkSocketDirectory() checks where a symlinked parent leads", () => {
      const target = join(root, "open-target");
      prepareSocketDirectory(join(target, "crownui"), uid);
      Deno.chmodSync(target, 0o777);
      const link = join(root, "link-parent");
      Deno.symlinkSync(target, link);
      assert.match(refusedBy(join(link, "crownui")).reason, /has mode 0777/);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("checkSocketFile() and fileIdentity()", async (t) => {
  const uid = getuid();
  const root = await tempDir();
  const path = join(root, "app-1.sock");
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(path, resolve));
  try {
    await t.step("checkSocketFile() accepts the user's own socket", () => {
      checkSocketFile(path, uid);
    });

    await t.step("checkSocketFile() refuses a socket another uid owns", () => {
      assert.throws(() => checkSocketFile(path, uid + 1), (error: unknown) => {
        assert.ok(error instanceof SocketDirectoryError);
        assert.equal(
          error.message,
          `socket file ${path} belongs to uid ${uid}, not to this user (uid ${uid + 1})`,
        );
        return true;
      });
    });

    await t.step("checkSocketFile() refuses a symlink to a socket, and a plain file", () => {
      const link = join(root, "link-2.sock");
      Deno.symlinkSync(path, link);
      assert.throws(() => checkSocketFile(link, uid), /socket file .* is a symlink$/);
      const file = join(root, "file-3.sock");
      Deno.writeTextFileSync(file, "");
      assert.throws(() => checkSocketFile(file, uid), /socket file .* is not a socket$/);
    });

    await t.step("fileIdentity() tells a file from its replacement", () => {
      const before = fileIdentity(path);
      assert.notEqual(before, null);
      assert.deepEqual(fileIdentity(path), before);
      const moved = join(root, "moved");
      Deno.renameSync(path, moved);
      Deno.writeTextFileSync(path, "");
      assert.notDeepEqual(fileIdentity(path), before);
      Deno.removeSync(path);
      assert.equal(fileIdentity(path), null);
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await Deno.remove(root, { recursive: true });
  }
});
