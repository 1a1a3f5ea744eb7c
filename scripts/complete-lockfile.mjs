#!/usr/bin/env node
// Keeps package-lock.json usable by `npm ci` on every machine.
//
// Some registries we install from carry only the platform packages for the
// platforms they serve (for example @rollup/rollup-linux-x64-gnu but not
// @rollup/rollup-darwin-arm64). `npm install` then leaves the other platforms'
// optional packages out of the lockfile, and `npm ci` refuses the lockfile as
// "out of sync". This script adds an entry for each missing optional platform
// package, carrying the os/cpu/libc that the package itself declares, so
// `npm ci` sees a complete lockfile and skips those entries on this platform
// without fetching them (see docs/decisions/006-lockfile-platform-packages.md).
//
// Usage: node scripts/complete-lockfile.mjs [--check]
//   --check  exit 1 (without writing) when entries are missing.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const lockPath = path.join(root, "package-lock.json");
const lock = JSON.parse(readFileSync(lockPath, "utf8"));
const packages = lock.packages;

const OS = ["android", "darwin", "freebsd", "linux", "openbsd", "netbsd", "openharmony", "sunos", "aix", "win32"];
const CPU = [
  ["arm64", "arm64"],
  ["aarch64", "arm64"],
  ["x64", "x64"],
  ["x86_64", "x64"],
  ["ia32", "ia32"],
  ["loong64", "loong64"],
  ["ppc64", "ppc64"],
  ["riscv64", "riscv64"],
  ["s390x", "s390x"],
  ["arm", "arm"],
  ["wasm32", "wasm32"],
];

/** Derives the platform fields from a platform package's name, or null. */
export function platformOf(name) {
  const base = name.split("/").pop();
  const parts = base.split("-");
  const fields = {};
  const os = parts.find((p) => OS.includes(p));
  if (os) fields.os = [os];
  for (const [token, cpu] of CPU) {
    if (parts.includes(token)) {
      fields.cpu = [cpu];
      break;
    }
  }
  if (os === "linux") {
    if (parts.some((p) => p.startsWith("musl"))) fields.libc = ["musl"];
    else if (parts.some((p) => p.startsWith("gnu"))) fields.libc = ["glibc"];
  }
  return fields.os || fields.cpu ? fields : null;
}

function resolveLocation(parentLocation, name) {
  // Node resolution: nested node_modules first, then up to the root.
  let dir = parentLocation;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return null;
    const idx = dir.lastIndexOf("/node_modules/");
    dir = idx === -1 ? "" : dir.slice(0, idx);
  }
}

const missing = [];
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolveLocation(location, name)) continue;
    const platform = platformOf(name);
    if (!platform) {
      console.error(
        `complete-lockfile: ${name} (optional for ${location || "root"}) is missing and is not a platform package; run npm install where the registry has it.`,
      );
      process.exitCode = 1;
      continue;
    }
    const version = /^\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/.test(range) ? range : range.replace(/^[\^~=]/, "");
    const added = { version, optional: true, ...platform };
    if (entry.dev) added.dev = true;
    if (entry.devOptional) added.devOptional = true;
    missing.push([`node_modules/${name}`, added]);
  }
}

if (process.argv.includes("--check")) {
  if (missing.length) {
    console.error(
      `complete-lockfile: ${missing.length} optional platform packages missing from package-lock.json; run: node scripts/complete-lockfile.mjs`,
    );
    process.exit(1);
  }
  process.exit(process.exitCode ?? 0);
}

for (const [location, added] of missing) packages[location] = added;
if (missing.length) {
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
  );
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(`complete-lockfile: added ${missing.length} platform entries`);
