import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { LatestInsights } from "./latest-insights";
import type { PostSummary } from "~/server/posts/index.server";

function render(posts: PostSummary[] | undefined) {
  const router = createMemoryRouter([
    { path: "/", element: <LatestInsights posts={posts} siteUrl="https://example.org" /> },
  ]);
  return renderToString(<RouterProvider router={router} />);
}

describe("Latest Insights", () => {
  it("says 'Loading latest insights...' while the posts are on their way", () => {
    const html = render(undefined);
    expect(html).toContain("Loading latest insights...");
    expect(html).not.toContain("articles</p>");
  });
});
