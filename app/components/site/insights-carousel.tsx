import { useEffect, useRef, useState } from "react";
import { insights } from "~/content/landing";
import { Tip } from "~/components/ui/tip";
import { formatDate } from "~/lib/dates";
import { articleUrl, openSharePopup, shareNetworks } from "~/lib/social-share";
import type { PostSummary } from "~/server/posts/index.server";
import { PostImage } from "./post-image";

/** Swipe threshold, slide transition and background fade (docs/product/interface.md#latest-insights-carousel). */
const SWIPE_THRESHOLD_PX = 50;
const SLIDE_TRANSITION_MS = 500;
const BACKGROUND_FADE_MS = 1000;

export function InsightsFrame({ children, backgrounds }: { children: React.ReactNode; backgrounds?: React.ReactNode }) {
  return (
    <>
      {backgrounds}
      <div className="relative mx-auto max-w-5xl">
        <h2 id="insights-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
          {insights.title}
        </h2>
        <p className="mt-3 text-lg text-neutral-200">{insights.intro}</p>
        {children}
      </div>
    </>
  );
}

export function InsightsCarousel({ posts, siteUrl }: { posts: PostSummary[]; siteUrl: string }) {
  const [index, setIndex] = useState(0);
  const [shareOpenFor, setShareOpenFor] = useState<string | null>(null);
  const total = posts.length;
  const swipeStart = useRef<{ x: number; y: number } | null>(null);

  const go = (next: number) => {
    setShareOpenFor(null);
    setIndex(((next % total) + total) % total);
  };

  if (total === 0) {
    return (
      <InsightsFrame>
        <p className="mt-8 text-lg">{insights.empty}</p>
      </InsightsFrame>
    );
  }

  const backgrounds = posts.map((post, i) => (
    <div
      key={post.id}
      aria-hidden="true"
      data-testid="insights-background"
      className="absolute inset-0 transition-opacity ease-in-out motion-reduce:transition-none"
      style={{ opacity: i === index ? 1 : 0, transitionDuration: `${BACKGROUND_FADE_MS}ms` }}
    >
      {post.headerImage ? (
        <img src={post.headerImage} alt="" className="h-full w-full object-cover opacity-30 blur-sm" loading="lazy" />
      ) : (
        <div className={`h-full w-full bg-gradient-to-br ${GRADIENTS[i % GRADIENTS.length]}`} />
      )}
    </div>
  ));

  return (
    <InsightsFrame backgrounds={backgrounds}>
      <div role="region" aria-roledescription="carousel" aria-label={insights.carouselLabel} className="mt-10">
        <div
          className="touch-pan-y overflow-hidden rounded-xl"
          data-testid="insights-viewport"
          onPointerDown={(event) => {
            swipeStart.current = { x: event.clientX, y: event.clientY };
          }}
          onPointerUp={(event) => {
            const start = swipeStart.current;
            swipeStart.current = null;
            if (!start) return;
            const dx = event.clientX - start.x;
            const dy = event.clientY - start.y;
            if (Math.abs(dx) <= SWIPE_THRESHOLD_PX || Math.abs(dx) < Math.abs(dy)) return;
            go(dx < 0 ? index + 1 : index - 1);
          }}
          onPointerCancel={() => {
            swipeStart.current = null;
          }}
        >
          <div
            data-testid="insights-track"
            className="flex transition-transform ease-out motion-reduce:transition-none"
            style={{ transform: `translateX(-${index * 100}%)`, transitionDuration: `${SLIDE_TRANSITION_MS}ms` }}
          >
            {posts.map((post, i) => (
              <div
                key={post.id}
                role="group"
                aria-roledescription="slide"
                aria-label={`${i + 1} of ${total}`}
                inert={i !== index}
                className="w-full shrink-0"
              >
                <Slide
                  post={post}
                  url={articleUrl(siteUrl, post.slug)}
                  shareOpen={shareOpenFor === post.id}
                  onShareToggle={() => setShareOpenFor((open) => (open === post.id ? null : post.id))}
                  onShareClose={() => setShareOpenFor(null)}
                />
              </div>
            ))}
          </div>
        </div>
        <div className="mt-6 flex items-center justify-between gap-4">
          <Tip label={insights.previous} side="top">
            <button type="button" aria-label={insights.previous} onClick={() => go(index - 1)} className={arrowClass}>
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="h-6 w-6"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <path d="M15 6l-6 6 6 6" />
              </svg>
            </button>
          </Tip>
          <p aria-live="polite" aria-atomic="true" data-testid="insights-counter" className="text-neutral-100">
            {insights.counter(index + 1, total)}
          </p>
          <Tip label={insights.next} side="top">
            <button type="button" aria-label={insights.next} onClick={() => go(index + 1)} className={arrowClass}>
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="h-6 w-6"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <path d="M9 6l6 6-6 6" />
              </svg>
            </button>
          </Tip>
        </div>
      </div>
      <p className="mt-8 text-center">
        <a href="/blog" className="font-semibold text-white underline underline-offset-4 hover:text-brand-100">
          {insights.allArticles}
        </a>
      </p>
    </InsightsFrame>
  );
}

const arrowClass = "rounded-full border border-white/60 p-3 text-white hover:bg-white/15";
const GRADIENTS = ["from-brand-900 to-brand-600", "from-neutral-900 to-brand-800", "from-brand-800 to-neutral-800"];

function Slide({
  post,
  url,
  shareOpen,
  onShareToggle,
  onShareClose,
}: {
  post: PostSummary;
  url: string;
  shareOpen: boolean;
  onShareToggle: () => void;
  onShareClose: () => void;
}) {
  return (
    <article className="grid overflow-hidden rounded-xl bg-white text-neutral-900 md:grid-cols-2">
      {post.headerImage ? (
        <PostImage
          src={post.headerImage}
          sizes="(min-width: 768px) 512px, 100vw"
          className="aspect-[16/9] h-full w-full object-cover"
        />
      ) : (
        <div aria-hidden="true" className="aspect-[16/9] h-full w-full bg-gradient-to-br from-brand-100 to-brand-600" />
      )}
      <div className="flex flex-col gap-3 p-6">
        <p className="text-sm text-neutral-700">
          {post.category && <span className="font-semibold text-brand-700">{post.category}</span>}
          {post.category && " · "}
          <time dateTime={post.publishDate}>{formatDate(post.publishDate)}</time>
        </p>
        <h3 className="text-2xl font-semibold leading-snug">
          <a href={`/blog/${post.slug}`} className="hover:underline">
            {post.title}
          </a>
        </h3>
        <p className="line-clamp-3 text-neutral-800">{post.excerpt}</p>
        <p className="text-sm text-neutral-700">
          {post.author} · {post.readTime}
        </p>
        <div className="mt-auto flex items-center justify-between gap-3 pt-2">
          <a
            href={`/blog/${post.slug}`}
            className="font-semibold text-brand-700 underline underline-offset-4"
            aria-label={`${insights.readArticle}: ${post.title}`}
          >
            {insights.readArticle}
          </a>
          <ShareMenu title={post.title} url={url} open={shareOpen} onToggle={onShareToggle} onClose={onShareClose} />
        </div>
      </div>
    </article>
  );
}

function ShareMenu({
  title,
  url,
  open,
  onToggle,
  onClose,
}: {
  title: string;
  url: string;
  open: boolean;
  onToggle: () => void;
  onClose: () => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = `share-${url.replace(/[^a-z0-9]+/gi, "-")}`;

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) onClose();
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open, onClose]);

  // On the menu's buttons, the only things in it that take focus: Escape closes it and focus goes back to its button.
  const closeOnEscape = (event: React.KeyboardEvent) => {
    if (event.key === "Escape" && open) {
      event.stopPropagation();
      onClose();
      button.current?.focus();
    }
  };

  return (
    <div ref={container} className="relative">
      <Tip label="Share" side="top">
        <button
          ref={button}
          type="button"
          aria-label={insights.share(title)}
          aria-expanded={open}
          aria-controls={open ? menuId : undefined}
          onClick={onToggle}
          onKeyDown={closeOnEscape}
          className="rounded-full border border-neutral-300 p-2 text-neutral-800 hover:bg-neutral-100"
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="h-5 w-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <circle cx="18" cy="5" r="3" />
            <circle cx="6" cy="12" r="3" />
            <circle cx="18" cy="19" r="3" />
            <path d="M8.6 13.5l6.8 4M15.4 6.5l-6.8 4" />
          </svg>
        </button>
      </Tip>
      {open && (
        <ul
          id={menuId}
          aria-label={`Share on`}
          className="absolute bottom-full right-0 z-10 mb-2 w-44 rounded-lg border border-neutral-200 bg-white py-1 shadow-lg"
        >
          {shareNetworks.map((network) => (
            <li key={network.id}>
              <button
                type="button"
                className="w-full px-4 py-2 text-left text-neutral-900 hover:bg-neutral-100"
                onKeyDown={closeOnEscape}
                onClick={() => {
                  openSharePopup(network.id, { url, title });
                  onClose();
                }}
              >
                {network.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
