import ICAL from "ical.js";

/**
 * Reads what a booking's e-mail carries (ADR 071), as a mail client would:
 * the MIME parts of a raw message as tests/support/smtp.ts received it,
 * decoded, and its text/calendar part parsed with ical.js, a parser of its
 * own, not the ical-generator that wrote it.
 */

interface MailPart {
  /** Header names in lower case, folded lines joined. */
  headers: Map<string, string>;
  /** The body, its transfer encoding undone, as UTF-8 text. */
  body: string;
}

function splitEntity(entity: string): { head: string; body: string } {
  const crlf = entity.indexOf("\r\n\r\n");
  const lf = entity.indexOf("\n\n");
  if (crlf >= 0 && (lf < 0 || crlf <= lf)) return { head: entity.slice(0, crlf), body: entity.slice(crlf + 4) };
  if (lf >= 0) return { head: entity.slice(0, lf), body: entity.slice(lf + 2) };
  return { head: entity, body: "" };
}

function headersOf(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[\t ]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function decode(body: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case "base64":
      return Buffer.from(body.replace(/\s/g, ""), "base64").toString("utf8");
    case "quoted-printable":
      return Buffer.from(
        body
          .replace(/=\r?\n/g, "")
          .replace(/=([\dA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        "latin1",
      ).toString("utf8");
    default:
      return body;
  }
}

/** A parameter of a header value: `method` of `text/calendar; charset=utf-8; method=REQUEST`. */
function headerParameter(value: string, name: string): string | undefined {
  for (const piece of value.split(";").slice(1)) {
    const equals = piece.indexOf("=");
    if (equals > 0 && piece.slice(0, equals).trim().toLowerCase() === name)
      return piece
        .slice(equals + 1)
        .trim()
        .replace(/^"|"$/g, "");
  }
  return undefined;
}

/** Every leaf part of a raw message, in order (a message that is not multipart is its own one part). */
function mailParts(raw: string): MailPart[] {
  const { head, body } = splitEntity(raw);
  const headers = headersOf(head);
  const type = headers.get("content-type") ?? "text/plain";
  const boundary = type.toLowerCase().startsWith("multipart/") ? headerParameter(type, "boundary") : undefined;
  if (!boundary) return [{ headers, body: decode(body, headers.get("content-transfer-encoding")) }];
  const delimiter = `--${boundary}`;
  const chunks = body.split(delimiter).slice(1);
  const parts: MailPart[] = [];
  for (const chunk of chunks) {
    if (chunk.startsWith("--")) break;
    parts.push(...mailParts(chunk.replace(/^\r?\n/, "").replace(/\r?\n$/, "")));
  }
  return parts;
}

/** A header of the message itself (not of a part), folded lines joined; undefined when absent. */
export function headerOf(raw: string, name: string): string | undefined {
  return headersOf(splitEntity(raw).head).get(name.toLowerCase());
}

/** The decoded text/plain part of a message. */
export function plainTextOf(raw: string): string {
  const part = mailParts(raw).find((p) => (p.headers.get("content-type") ?? "text/plain").startsWith("text/plain"));
  if (!part) throw new Error("the mail has no text/plain part");
  return part.body;
}

export interface CalendarInvite {
  /** The METHOD parameter of the part's Content-Type. */
  partMethod: string | undefined;
  /** The calendar's METHOD property. */
  method: string;
  uid: string;
  sequence: number;
  start: string;
  end: string;
  status: string;
  summary: string;
  organizer: string;
  attendees: Array<{ address: string; partstat: string; name: string }>;
}

/** A mailto: address as one spelling (the scheme's case does not matter, RFC 3986; ical-generator writes MAILTO:). */
const mailto = (value: unknown) => {
  const text = typeof value === "string" ? value : "";
  return text.toLowerCase().startsWith("mailto:") ? `mailto:${text.slice(7)}` : text;
};

/** The message's text/calendar part, parsed with ical.js: its one event. */
export function calendarOf(raw: string): CalendarInvite {
  const parts = mailParts(raw).filter((p) => p.headers.get("content-type")?.toLowerCase().startsWith("text/calendar"));
  if (parts.length !== 1) throw new Error(`the mail has ${parts.length} text/calendar parts, not one`);
  const [part] = parts as [MailPart];
  const calendar = new ICAL.Component(ICAL.parse(part.body));
  const events = calendar.getAllSubcomponents("vevent");
  if (events.length !== 1) throw new Error(`the calendar has ${events.length} events, not one`);
  const vevent = events[0]!;
  const event = new ICAL.Event(vevent);
  const text = (name: string) => String(vevent.getFirstPropertyValue(name) ?? "");
  return {
    partMethod: headerParameter(part.headers.get("content-type")!, "method"),
    method: String(calendar.getFirstPropertyValue("method") ?? ""),
    uid: event.uid,
    sequence: event.sequence,
    start: event.startDate.toJSDate().toISOString(),
    end: event.endDate.toJSDate().toISOString(),
    status: text("status"),
    summary: event.summary,
    organizer: mailto(vevent.getFirstPropertyValue("organizer")),
    attendees: vevent.getAllProperties("attendee").map((property) => ({
      address: mailto(property.getFirstValue()),
      partstat: String(property.getParameter("partstat") ?? ""),
      name: String(property.getParameter("cn") ?? ""),
    })),
  };
}
