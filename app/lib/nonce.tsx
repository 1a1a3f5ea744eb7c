import { createContext, useContext } from "react";

/** The per-request CSP nonce, handed from the server entry to <Scripts>. */
const NonceContext = createContext<string | undefined>(undefined);
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
