import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { type BulkMail, BulkSendError, createBulkSender } from "./held-send.server";

/**
 * The held send (ADR 072) against a scripted SMTP server on loopback, one
 * behaviour each: the commit runs after the server's 354 and before the
 * final "."; a commit that fails means no "." (the server discards the
 * message); and what each failure means for its recipient.
 */

type Mode =
  | "ok"
  | "rcpt550"
  | "auth535"
  | "after-dot-451"
  | "after-dot-554"
  | "drop-after-dot"
  | "close-during-commit"
  | "close-when-idle";

interface Script {
  port: number;
  events: string[];
  messages: number;
}

const servers: net.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

function smtp(mode: Mode): Promise<Script> {
  const script: Script = { port: 0, events: [], messages: 0 };
  const server = net.createServer((socket) => {
    socket.on("error", () => {});
    let data = false;
    let buffer = "";
    socket.write("220 test ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1");
      if (data) {
        if (mode === "close-during-commit") {
          script.events.push("closed before the end");
          socket.destroy();
          return;
        }
        if (!buffer.includes("\r\n.\r\n")) return;
        data = false;
        buffer = "";
        script.events.push("end");
        if (mode === "drop-after-dot") return void socket.destroy();
        if (mode === "after-dot-451") return void socket.write("451 4.3.0 try later\r\n");
        if (mode === "after-dot-554") return void socket.write("554 5.6.0 refused\r\n");
        script.messages++;
        socket.write("250 queued\r\n");
        if (mode === "close-when-idle") setTimeout(() => socket.end("421 bye\r\n"), 50);
        return;
      }
      let at: number;
      while ((at = buffer.indexOf("\r\n")) >= 0) {
        const verb = buffer.slice(0, 4).toUpperCase();
        buffer = buffer.slice(at + 2);
        if (verb === "EHLO") socket.write("250-test\r\n250 AUTH PLAIN LOGIN\r\n");
        else if (verb === "AUTH") socket.write(mode === "auth535" ? "535 5.7.8 no\r\n" : "235 ok\r\n");
        else if (verb === "MAIL") socket.write("250 ok\r\n");
        else if (verb === "RCPT") socket.write(mode === "rcpt550" ? "550 5.1.1 no such user\r\n" : "250 ok\r\n");
        else if (verb === "DATA") {
          script.events.push("354");
          data = true;
          socket.write("354 go ahead\r\n");
        } else if (verb === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
  });
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        ...script,
        port: (server.address() as net.AddressInfo).port,
        events: script.events,
        get messages() {
          return script.messages;
        },
      }),
    ),
  );
}

const mail: BulkMail = {
  from: { name: "Site", address: "site@example.com" },
  to: "reader@example.com",
  subject: "A post",
  html: "<p>Hello</p>",
  text: "Hello",
  messageId: "<held-send-test@example.com>",
  headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
};

async function sendWith(mode: Mode, commit: (events: string[]) => Promise<void> = async () => {}, auth = false) {
  const server = await smtp(mode);
  const sender = createBulkSender(`smtp://${auth ? "user:pass@" : ""}127.0.0.1:${server.port}`);
  try {
    await sender.send(mail, () => commit(server.events));
    return { server, error: undefined };
  } catch (error) {
    return { server, error: error as BulkSendError };
  } finally {
    sender.close();
  }
}

describe("the held send", () => {
  it("commits after the server's 354 and before the message's end", async () => {
    const { server, error } = await sendWith("ok", (events) => {
      events.push("commit");
      return Promise.resolve();
    });
    expect(error).toBeUndefined();
    expect(server.events).toEqual(["354", "commit", "end"]);
    expect(server.messages).toBe(1);
  });

  it("sends no end when the commit fails: the server never has the message", async () => {
    const { server, error } = await sendWith("ok", () => Promise.reject(new Error("another run recorded it")));
    expect(error).toBeInstanceOf(BulkSendError);
    expect(error).toMatchObject({ outcome: "retry", committed: false });
    await sleep(100);
    expect(server.events).toEqual(["354"]);
    expect(server.messages).toBe(0);
  });

  it("names what each failure means for the recipient", async () => {
    expect((await sendWith("rcpt550")).error).toMatchObject({ outcome: "recipient", code: "550", committed: false });
    expect((await sendWith("auth535", undefined, true)).error).toMatchObject({ outcome: "retry", committed: false });
    expect((await sendWith("after-dot-554")).error).toMatchObject({ outcome: "refused", code: "554", committed: true });
    expect((await sendWith("after-dot-451")).error).toMatchObject({ outcome: "retry", code: "451", committed: true });
    expect((await sendWith("drop-after-dot")).error).toMatchObject({ outcome: "unconfirmed", committed: true });
  });

  it("a connection lost while the commit runs reports what the commit did", async () => {
    const { error } = await sendWith("close-during-commit", () => sleep(200));
    expect(error).toMatchObject({ outcome: "retry", committed: true });
  });

  it("opens a new connection after the server closed an idle one", async () => {
    const server = await smtp("close-when-idle");
    const sender = createBulkSender(`smtp://127.0.0.1:${server.port}`);
    try {
      await sender.send(mail, async () => {});
      await sleep(200);
      await sender.send(mail, async () => {});
      expect(server.messages).toBe(2);
    } finally {
      sender.close();
    }
  });
});
