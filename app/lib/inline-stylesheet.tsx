import { createContext, useContext } from "react";

/**
 * The stylesheet a public page carries inline (ADR 031), handed from the
 * server entry to the root layout. Undefined for the admin (which links the
 * file, cached across its pages), in development (Vite serves it) and in the
 * browser.
 */
const InlineStylesheetContext = createContext<string | undefined>(undefined);
export const InlineStylesheetProvider = InlineStylesheetContext.Provider;
export const useInlineStylesheet = () => useContext(InlineStylesheetContext);
