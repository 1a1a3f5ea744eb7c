#!/usr/bin/env node
// Makes a fresh clone runnable: installs dependencies when node_modules is
// missing or older than package-lock.json, and builds when the build is
// missing or older than the sources. Plain Node, no dependencies, so it can
// run before `npm ci`.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const mtime = (file) => {
  try {
    return fs.statSync(path.join(root, file)).mtimeMs;
  } catch {
    return 0;
  }
};
const newestUnder = (dir) => {
  let newest = 0;
  const walk = (current) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  if (fs.existsSync(path.join(root, dir))) walk(path.join(root, dir));
  return newest;
};
const run = (command) => execSync(command, { cwd: root, stdio: "inherit" });

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Node ${process.versions.node} is too old: this site needs Node 20.19 or newer.`);
  process.exit(1);
}

// A worktree that borrows another checkout's node_modules through a symlink
// must never reinstall: npm ci would empty the tree the other checkout uses.
const borrowed = (() => {
  try {
    return fs.lstatSync(path.join(root, "node_modules")).isSymbolicLink();
  } catch {
    return false;
  }
})();
const installed = mtime("node_modules/.package-lock.json");
if (borrowed) {
  if (!installed) console.warn("node_modules is a symlink to a tree without an install: run npm ci there.");
} else if (!installed || installed < mtime("package-lock.json")) {
  console.log("Installing dependencies (npm ci)...");
  run("npm ci --no-audit --no-fund");
}

if (process.argv.includes("build")) {
  const built = Math.min(mtime("build/server/index.js"), mtime("build/server/cli.js"));
  const sources = Math.max(
    newestUnder("app"),
    newestUnder("server"),
    newestUnder("public"),
    ...["package-lock.json", "vite.config.ts", "react-router.config.ts", "tsconfig.json"].map(mtime),
  );
  if (!built || built < sources) {
    console.log("Building the site (npm run build)...");
    run("npm run build");
  }
}
