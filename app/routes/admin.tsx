import { Form, Link } from "react-router";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/seo";
import { requireAdminPage } from "~/server/auth.server";
import { getDb } from "~/server/db/index.server";
import { listAllPosts } from "~/server/posts.server";
import type { Route } from "./+types/admin";

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdminPage(request);
  return { admin: { email: admin.email }, posts: await listAllPosts(getDb()) };
}

export const meta = () => pageMeta({ title: "Blog Admin", noindex: true });

export default function Admin({ loaderData }: Route.ComponentProps) {
  const { admin, posts } = loaderData;
  return (
    <main id="main" className="mx-auto max-w-6xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Blog Admin</h1>
        <Link to="/admin/messages" className="font-medium text-brand-700 underline underline-offset-2">
          Messages
        </Link>
        <Form method="post" action="/admin/logout" className="flex items-center gap-3 text-sm">
          <span className="text-neutral-700">Signed in as {admin.email}</span>
          <button type="submit" className="rounded-md border border-neutral-400 px-3 py-1.5 font-medium hover:bg-neutral-100">
            Sign out
          </button>
        </Form>
      </div>
      {posts.length === 0 ? (
        <p className="mt-8 text-neutral-700">No blog posts yet.</p>
      ) : (
        <div className="mt-8 overflow-x-auto">
          <table className="w-full border-collapse text-left text-sm">
            <thead>
              <tr className="border-b border-neutral-300">
                <th scope="col" className="py-2 pr-4">Title</th>
                <th scope="col" className="py-2 pr-4">Category</th>
                <th scope="col" className="py-2 pr-4">Date</th>
                <th scope="col" className="py-2 pr-4">Status</th>
              </tr>
            </thead>
            <tbody>
              {posts.map((post) => (
                <tr key={post.id} className="border-b border-neutral-200">
                  <td className="py-2 pr-4 font-medium">{post.title}</td>
                  <td className="py-2 pr-4">{post.category}</td>
                  <td className="py-2 pr-4">{formatDate(post.publishDate)}</td>
                  <td className="py-2 pr-4">{post.published ? "Published" : "Draft"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}
