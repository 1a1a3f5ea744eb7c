import { Form, redirect, useActionData, useNavigation } from "react-router";
import { AdminScreen, listLoading } from "~/components/admin/admin-screen";
import { Pager } from "~/components/admin/pager";
import { adminListHref, countOf, pageCount } from "~/lib/admin-lists";
import { formatDate } from "~/lib/dates";
import { formatBytes, imageSrcSet } from "~/lib/images";
import { pageMeta } from "~/lib/seo";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, readFormBody } from "~/server/platform/http.server";
import { deleteImage, describeUse, listImages, parseImageScreenQuery } from "~/server/images/index.server";
import type { Route } from "./+types/route";

/** /admin/images?page=: the uploads no post or page uses, newest first (ADR 036, 053). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseImageScreenQuery(new URL(request.url));
  if (!query.ok) throw jsonError(400, query.message);
  const { images, total } = await listImages(context.get(dbContext), { ...query.value, unused: true });
  const { page } = query.value;
  // Past the end (the last images were deleted, an old link): the last page.
  const pages = pageCount(total);
  if (page > pages) throw redirect(adminListHref("/admin/images", { page: pages }));
  return { images, total, page, pages };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormBody(request);
  if (form.get("intent") !== "delete") return { error: "Unknown action" };
  const deletion = await deleteImage(context.get(dbContext), String(form.get("id") ?? ""));
  switch (deletion.status) {
    case "deleted":
      return { deleted: true };
    case "missing":
      // Deleted a moment ago (another tab): it is gone either way.
      return { deleted: true };
    case "used":
      return { error: `The image was not deleted. ${describeUse(deletion)}.` };
  }
}

export const meta = () => pageMeta({ title: "Images | Blog Admin", noindex: true });

const DELETE_IMAGE_CONFIRMATION = "Are you sure you want to delete this image? This cannot be undone.";

export default function AdminImages({ loaderData }: Route.ComponentProps) {
  const { images, total, page, pages } = loaderData;
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busyId = navigation.formData?.get("id");
  const loading = listLoading(navigation, "/admin/images");
  return (
    <AdminScreen
      width="5xl"
      title="Images"
      intro="Uploaded images that no post uses, neither as its header image nor in its content, and no page shows as a team photo. Deleting one frees its space; an image in use is never listed here and cannot be deleted."
    >
      {result && "error" in result && (
        <p role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 p-3 text-red-900">
          {result.error}
        </p>
      )}
      <p aria-live="polite" aria-atomic="true" className="mt-4 font-medium">
        {loading
          ? "Loading images..."
          : total === 0
            ? "No unused images."
            : `${countOf(total, "unused image")}${
                pages > 1 ? `; page ${page.toLocaleString("en-US")} of ${pages.toLocaleString("en-US")}` : ""
              }.`}
      </p>
      {images.length > 0 && (
        <ul
          aria-busy={loading}
          aria-label="Unused images"
          className={`mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 ${loading ? "opacity-60" : ""}`}
        >
          {images.map((image) => {
            const uploaded = formatDate(image.createdAt);
            const name = `${image.width} × ${image.height} image uploaded ${uploaded}`;
            return (
              <li key={image.id} className="flex flex-col rounded-lg border border-neutral-200 bg-white p-3 shadow-sm">
                <a
                  href={image.url}
                  className="block overflow-hidden rounded-md bg-neutral-100"
                  aria-label={`Open the ${name}`}
                >
                  <img
                    src={image.thumbnailUrl}
                    srcSet={imageSrcSet(image.url)}
                    sizes="(min-width: 1024px) 310px, (min-width: 640px) 45vw, 100vw"
                    alt=""
                    width={image.width}
                    height={image.height}
                    loading="lazy"
                    className="aspect-[4/3] h-auto w-full object-contain"
                  />
                </a>
                <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className="font-medium">Size</dt>
                  <dd>{formatBytes(image.bytes)}</dd>
                  <dt className="font-medium">Uploaded</dt>
                  <dd>
                    <time dateTime={image.createdAt}>{uploaded}</time>
                  </dd>
                  <dt className="font-medium">Dimensions</dt>
                  <dd>
                    {image.width} × {image.height} px
                  </dd>
                </dl>
                <Form
                  method="post"
                  className="mt-3"
                  onSubmit={(event) => {
                    if (!window.confirm(DELETE_IMAGE_CONFIRMATION)) event.preventDefault();
                  }}
                >
                  <input type="hidden" name="id" value={image.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="delete"
                    aria-label={`Delete the ${name}`}
                    disabled={busyId === image.id}
                    className="min-h-10 rounded-md border border-red-300 px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50"
                  >
                    {busyId === image.id ? "Deleting..." : "Delete"}
                  </button>
                </Form>
              </li>
            );
          })}
        </ul>
      )}
      <Pager
        page={page}
        pages={pages}
        hrefFor={(n) => adminListHref("/admin/images", { page: n })}
        label="Pages of images"
      />
    </AdminScreen>
  );
}
