import "react-router";

declare module "react-router" {
  interface AppLoadContext {
    /** Per-request nonce that the Content-Security-Policy allows for inline scripts. */
    cspNonce: string;
    /** The client's address (X-Forwarded-For honoured only from TRUST_PROXY). */
    clientAddress: string;
  }
}

export {};
