import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown";

describe("renderMarkdown", () => {
  it("renders GFM: headings, emphasis, tables, task lists, strikethrough", () => {
    const html = renderMarkdown(
      "# Title\n\n**bold** ~~gone~~\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n",
    );
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<del>gone</del>");
    expect(html).toContain("<table>");
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*checked/);
  });

  it("drops raw HTML and script", () => {
    const html = renderMarkdown('hi <script>alert(1)</script> <img src=x onerror="alert(1)">');
    expect(html).not.toMatch(/<script|onerror/i);
  });

  it("removes javascript: links but keeps https links", () => {
    const html = renderMarkdown("[bad](javascript:alert(1)) [good](https://example.org/a)");
    expect(html).not.toContain("javascript:");
    expect(html).toContain('href="https://example.org/a"');
  });
});
