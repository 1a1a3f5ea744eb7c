import { Suspense, use } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderStatic, renderWhole } from "./render-whole.server";

const text = (html: Buffer) => html.toString("utf8");

const never = new Promise<string>(() => {});
function Pending() {
  return <p>{use(never)}</p>;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("renderWhole", () => {
  it("answers the whole page and leaves no timer behind", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const onError = vi.fn();
    const { html, failed } = await renderWhole(
      <main>
        <h1>Title</h1>
      </main>,
      { deadlineMs: 6_000, onError },
    );
    // The deadline's timer would keep this render alive until it fired.
    expect(vi.getTimerCount()).toBe(0);
    expect(text(html)).toBe("<main><h1>Title</h1></main>");
    expect(failed).toBe(false);
    expect(onError).not.toHaveBeenCalled();
  });

  it("aborts a render that is not whole by its deadline, and says it failed", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    // React says on stderr that an aborted render still had a task; that is the abort.
    vi.spyOn(console, "error").mockImplementation(() => {});
    const onError = vi.fn();
    const rendered = renderWhole(
      <Suspense fallback={<p>Loading</p>}>
        <Pending />
      </Suspense>,
      { deadlineMs: 6_000, onError },
    );
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(6_000);
    const { html, failed } = await rendered;
    expect(failed).toBe(true);
    expect(onError).toHaveBeenCalledOnce();
    expect(text(html)).toContain("Loading");
  });
});

function Broken(): never {
  throw new Error("broken part");
}

describe("renderStatic", () => {
  it("answers the whole page as a document", () => {
    const onError = vi.fn();
    const { html, failed } = renderStatic(
      <html lang="en">
        <body>
          <h1>Title</h1>
        </body>
      </html>,
      { onError },
    );
    expect(text(html)).toBe('<!DOCTYPE html><html lang="en"><head></head><body><h1>Title</h1></body></html>');
    expect(failed).toBe(false);
    expect(onError).not.toHaveBeenCalled();
  });

  it.each([
    ["suspended, which no islands page can finish in the browser", <Pending />],
    ["threw inside a boundary", <Broken />],
  ])("says a page failed when a part of it %s", (_, part) => {
    const onError = vi.fn();
    const { html, failed } = renderStatic(
      <main>
        <Suspense fallback={<p>Loading</p>}>{part}</Suspense>
      </main>,
      { onError },
    );
    expect(failed).toBe(true);
    expect(onError).toHaveBeenCalledOnce();
    expect(text(html)).toContain("Loading");
  });

  it("throws what the page threw outside any boundary, as renderWhole rejects", async () => {
    const onError = vi.fn();
    expect(() => renderStatic(<Broken />, { onError })).toThrow("broken part");
    await expect(renderWhole(<Broken />, { deadlineMs: 6_000, onError })).rejects.toThrow("broken part");
  });
});
