import { describe, expect, it } from "vitest";
import { InheritedSocketError, takeInheritedSocket } from "./inherited-socket";

describe("takeInheritedSocket", () => {
  it("answers fd 3 when systemd passed one socket to this process, and removes the variables", () => {
    const env: NodeJS.ProcessEnv = {
      LISTEN_FDS: "1",
      LISTEN_PID: "4242",
      LISTEN_FDNAMES: "ojai-site@3001.socket",
      PORT: "3001",
    };
    expect(takeInheritedSocket(env, 4242)).toBe(3);
    expect(env).toEqual({ PORT: "3001" });
  });

  it("answers nothing without the variables, or when they were meant for another process", () => {
    expect(takeInheritedSocket({}, 4242)).toBeUndefined();
    const inherited: NodeJS.ProcessEnv = { LISTEN_FDS: "1", LISTEN_PID: "1000" };
    expect(takeInheritedSocket(inherited, 4242)).toBeUndefined();
    // A parent's variables are not left for this process's own children either.
    expect(inherited).toEqual({});
    expect(takeInheritedSocket({ LISTEN_FDS: "1" }, 4242)).toBeUndefined();
  });

  it("refuses more sockets than one, or a count that is not a number", () => {
    for (const count of ["2", "0", "one", ""])
      expect(() => takeInheritedSocket({ LISTEN_FDS: count, LISTEN_PID: "7" }, 7)).toThrow(InheritedSocketError);
  });
});
