import { randomUUID } from "node:crypto";

/** A posts row as stored, with the least text a row needs: for tests that insert posts straight into the database. */
export function postRow(slug: string, date: string, published = 1) {
  return {
    id: randomUUID(),
    title: slug,
    slug,
    excerpt: "e",
    content: "c",
    content_html: "<p>c</p>",
    category: "",
    author: "a",
    publish_date: date,
    read_time: "1 min read",
    published,
    header_image: null,
    created_at: date,
    updated_at: date,
  };
}
