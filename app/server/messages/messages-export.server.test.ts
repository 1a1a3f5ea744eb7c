import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { messagesCsvFileName, messagesCsvStringifier } from "./messages-export.server";

/** The CSV encoder of the inbox's export (ADR 035); the route is tested in tests/http/messages-admin.db.test.ts. */
describe("messagesCsvStringifier", () => {
  // Decoded by hand: TextDecoder (and so stream/consumers' text()) drops a byte-order mark.
  const encode = async (rows: string[][]) =>
    (await buffer(Readable.from(rows).pipe(messagesCsvStringifier()))).toString("utf8");

  it("starts with a UTF-8 byte-order mark and the header row, records separated by CRLF", async () => {
    const csv = await encode([
      [
        "2026-11-24T10:00:00.000Z",
        "Zoë",
        "zoe@example.com",
        "",
        "Email",
        "For Media",
        "Hi",
        "no",
        "",
        "Won",
        "2026-12-01",
        "Call back",
        "/about",
        "news.example.org",
        "",
      ],
    ]);
    expect(Buffer.from(csv, "utf8").subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const [header, row, end] = csv.slice(1).split("\r\n");
    expect(header).toBe(
      "Received (UTC),Name,Email,Phone,Preferred Contact Method,Service Interest,Message,Read,Read at (UTC)," +
        "Status,Follow-up,Note,Source page,Source,Campaign",
    );
    expect(row).toBe(
      "2026-11-24T10:00:00.000Z,Zoë,zoe@example.com,,Email,For Media,Hi,no,,Won,2026-12-01,Call back,/about,news.example.org,",
    );
    expect(end).toBe("");
  });

  it.each([
    ["=1+2", "'=1+2"],
    ["+1 805 555 0100", "'+1 805 555 0100"],
    ["-2", "'-2"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tcmd", "'\tcmd"],
    ["\rcmd", `"'\rcmd"`],
    ["a=1", "a=1"],
    ["plain", "plain"],
  ])("neutralises a formula: %j is written %j", async (cell, written) => {
    const csv = await encode([["", cell, ...Array<string>(13).fill("")]]);
    expect(csv.slice(1).split("\r\n")[1]).toBe(`,${written}${",".repeat(13)}`);
  });

  it("quotes commas, quotes and line breaks", async () => {
    const csv = await encode([["", 'Say "hi", then\nleave', ...Array<string>(13).fill("")]]);
    expect(csv).toContain(`,"Say ""hi"", then\nleave",`);
  });

  it("names the file by the minute, in UTC", () => {
    expect(messagesCsvFileName(new Date("2026-11-24T15:30:45.000Z"))).toBe("messages-2026-11-24T1530Z.csv");
  });
});
