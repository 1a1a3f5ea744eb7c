import * as Toast from "@radix-ui/react-toast";
import { createContext, useCallback, useContext, useState } from "react";

/** At most one notice at a time, 5000 ms, swipe right past 50 px to dismiss, F8 focuses the area (docs/product/interface.md#notices-and-tooltips). */
const NOTICE_DURATION_MS = 5000;
const NOTICE_SWIPE_THRESHOLD_PX = 50;

export interface Notice {
  title: string;
  description?: string;
  tone?: "success" | "error";
}

type Notify = (notice: Notice) => void;
const NotifyContext = createContext<Notify>(() => {});

/** Shows a notice; a new one replaces the one on screen. */
export const useNotify = () => useContext(NotifyContext);

export function NotifyProvider({ children }: { children: React.ReactNode }) {
  const [current, setCurrent] = useState<(Notice & { id: number }) | null>(null);
  const notify = useCallback<Notify>((notice) => setCurrent({ ...notice, id: Date.now() + Math.random() }), []);
  const error = current?.tone === "error";
  return (
    <Toast.Provider duration={NOTICE_DURATION_MS} swipeDirection="right" swipeThreshold={NOTICE_SWIPE_THRESHOLD_PX}>
      <NotifyContext.Provider value={notify}>{children}</NotifyContext.Provider>
      {current && (
        <Toast.Root
          key={current.id}
          type={error ? "foreground" : "background"}
          onOpenChange={(open) => {
            if (!open) setCurrent((shown) => (shown?.id === current.id ? null : shown));
          }}
          data-tone={current.tone ?? "success"}
          className={`notice pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border p-4 pr-10 shadow-lg ${
            error ? "border-red-300 bg-red-50 text-red-900" : "border-brand-600 bg-white text-neutral-900"
          }`}
        >
          <div className="flex flex-col gap-1">
            <Toast.Title className="font-semibold">{current.title}</Toast.Title>
            {current.description && <Toast.Description className="text-sm">{current.description}</Toast.Description>}
          </div>
          <Toast.Close
            aria-label="Dismiss notification"
            className="absolute right-2 top-2 rounded p-1 text-neutral-700 hover:bg-neutral-200"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 20 20"
              className="h-4 w-4"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M5 5l10 10M15 5L5 15" />
            </svg>
          </Toast.Close>
        </Toast.Root>
      )}
      {/* aria-live="off" keeps the area out of a modal's aria-hidden sweep, so a
          notice shown over the contact modal stays readable; Radix announces
          each notice itself. */}
      {/* On a phone the contact form fills the screen and its Send button sits
          at the bottom, so notices show at the top there; bottom right on
          wider screens, beside the form. Only a notice itself takes clicks,
          not the padding around it. */}
      <div aria-live="off">
        <Toast.Viewport className="pointer-events-none fixed right-0 top-0 z-[100] m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none sm:bottom-0 sm:top-auto" />
      </div>
    </Toast.Provider>
  );
}
