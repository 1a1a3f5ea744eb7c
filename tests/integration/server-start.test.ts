import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * What a start of the built server compiles (ADR 088): the entry and every
 * chunk it imports statically. Node 20 compiles each ES module whole before
 * running it and keeps no cache between starts, so whatever is in that graph
 * is paid at every start: a restart, an `npm run admin` command, each of
 * the suite's hundreds of servers. Dependencies that only rare work needs
 * are imported where that work starts and stay out of it; once before, the
 * import's converter slid back in unnoticed through a static import.
 */
const SERVER = path.resolve(import.meta.dirname, "../../build/server");
const label = (file: string) => path.relative(SERVER, file);

/**
 * The chunks `text` imports or re-exports statically. Rolldown writes each
 * such statement on a line of its own, `import ... from "./x.js";` or
 * `import "./x.js";`; a dynamic `import("./x.js")` is an expression.
 */
function staticImports(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("import ") && !line.startsWith("export ")) continue;
    const end = line.lastIndexOf('"');
    const start = line.lastIndexOf('"', end - 1);
    const specifier = line.slice(start + 1, end);
    if (start >= 0 && specifier.startsWith(".")) found.push(specifier);
  }
  return found;
}

let files: Map<string, string> | undefined;
/** Every .js file of the server build and its text, read once for the file's tests. */
function buildFiles(): Map<string, string> {
  files ??= new Map(
    fs
      .readdirSync(SERVER, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".js"))
      .map((name) => [path.join(SERVER, name), fs.readFileSync(path.join(SERVER, name), "utf8")]),
  );
  return files;
}

const graphs = new Map<string, Map<string, number>>();
/** The files a start of `entry` compiles, with their sizes in bytes. */
function startGraph(entry: string): Map<string, number> {
  const known = graphs.get(entry);
  if (known) return known;
  const graph = new Map<string, number>();
  const visit = (file: string) => {
    if (graph.has(file)) return;
    const text = buildFiles().get(file);
    if (text === undefined) throw new Error(`${label(file)} is missing: run npm run build first`);
    graph.set(file, text.length);
    for (const specifier of staticImports(text)) visit(path.resolve(path.dirname(file), specifier));
  };
  visit(path.join(SERVER, entry));
  graphs.set(entry, graph);
  return graph;
}

/** Every file of the server build that holds `marker`. */
const filesHolding = (marker: string) =>
  [...buildFiles()].filter(([, text]) => text.includes(marker)).map(([file]) => file);

/** A text each dependency's own code holds, and no code of ours. */
const LOADED_WHEN_NEEDED = [
  { what: "the AWS SDK (off-site backups)", marker: "aws-sdk-js" },
  { what: "nodemailer (mail, once SMTP_URL is set)", marker: "X-Mailer" },
  { what: "nodemailer's SMTP connection (a mailing's bulk send)", marker: "actionSMTPStream" },
  { what: "turndown and its DOM (the import's converter)", marker: "__domino_frozen__" },
  { what: "html-to-text (a post's mail)", marker: "longWordSplit" },
];

// The worker outlives this file (isolate: false): the build's text is not kept.
afterAll(() => {
  files = undefined;
  graphs.clear();
});

describe.each(["index.js", "cli.js"])("a start of build/server/%s", (entry) => {
  it.each(LOADED_WHEN_NEEDED)("does not compile $what", ({ marker }) => {
    const holding = filesHolding(marker);
    // A marker that no longer names its dependency would pass for nothing.
    expect(holding.length, `no file of build/server holds ${marker}`).toBeGreaterThan(0);
    const graph = startGraph(entry);
    expect(holding.filter((file) => graph.has(file)).map(label)).toEqual([]);
  });

  it("compiles at most 5 MB of code", () => {
    const graph = startGraph(entry);
    const bytes = [...graph.values()].reduce((sum, size) => sum + size, 0);
    const largest = [...graph].sort((a, b) => b[1] - a[1]).slice(0, 5);
    expect(bytes, `largest: ${largest.map(([file, size]) => `${label(file)} ${size}`).join(", ")}`).toBeLessThan(
      5_000_000,
    );
  });
});
