import { describe, expect, it } from "vitest";
import { parseCsv } from "./csv.server";

/** The CSV reader of the imports (redirects, subscribers): in pieces, each record with its line. */

/** The redirects' bound on a line (two addresses, a status, quotes and commas). */
const MAX_LINE = 1_564;

describe("parseCsv", () => {
  it("reads quoted fields, doubled quotes, CRLF and blank lines, with each record's line", async () => {
    expect(await parseCsv('a,b\r\n\r\n"c,d","e ""f"""\n"g\nh",i', MAX_LINE)).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 3, fields: ["c,d", 'e "f"'] },
      { line: 4, fields: ["g\nh", "i"] },
    ]);
  });

  it("names an unclosed quote and a line too long by their lines, on a large input too", async () => {
    expect(await parseCsv('a,b\n"open,c', MAX_LINE)).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, message: "a quoted field is not closed" },
    ]);
    // A syntax error ends the reading: named by its line, after the records before it.
    const long = await parseCsv(`/a,/b\n/${"a".repeat(5000)},/b\n/c,/d`, MAX_LINE);
    expect(long).toEqual([
      { line: 1, fields: ["/a", "/b"] },
      { line: 2, message: expect.stringContaining("too long") },
    ]);
    const quotes = '"'.repeat(500_000);
    expect((await parseCsv(quotes, MAX_LINE)).length).toBeLessThanOrEqual(1);
  });
  it("reads a file in pieces as it would whole: records across the pieces' edges, and errors past them", async () => {
    // Lines of every length, quoted fields with commas and newlines, so that the pieces' edges fall everywhere.
    const lines = Array.from({ length: 3000 }, (_, i) =>
      i % 7 === 0 ? `"/q${i},\n${"x".repeat(i % 50)}",/to-${i}` : `/p${i}-${"y".repeat(i % 97)},/to-${i},301`,
    );
    const records = await parseCsv(lines.join("\r\n"), MAX_LINE);
    expect(records).toHaveLength(3000);
    // Each of the 429 quoted records (every seventh) spans two lines.
    expect(records.at(-1)).toEqual({ line: 3429, fields: [`/p2999-${"y".repeat(2999 % 97)}`, "/to-2999", "301"] });
    expect(records.filter((record) => "message" in record)).toEqual([]);
    const open = await parseCsv(`${lines.join("\n")}\n"/open,/x\n/after,/y`, MAX_LINE);
    expect(open.at(-1)).toMatchObject({ message: "a quoted field is not closed" });
  });
});
