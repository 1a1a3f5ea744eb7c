import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { getConfig } from "../platform/config.server";

/**
 * scrypt at one of OWASP's recommended settings (ADR 021): N=2^14, r=8, p=5.
 * Memory per hash is 128 x N x r = 16 MiB (native, outside the JS heap); p=5
 * runs five such mixes one after the other, for the work of the 128 MiB
 * setting at an eighth of its memory.
 */
export const PASSWORD_PARAMS = { N: 2 ** 14, r: 8, p: 5 } as const;

/**
 * PASSWORD_HASH_COST=test (ADR 058): the same scrypt at a sixtieth of the
 * work, for the test suite's servers, which sign in thousands of times; as
 * Rails' min_cost in its test environment. Never at an https address.
 */
const TEST_PASSWORD_PARAMS = { N: 2 ** 10, r: 8, p: 1 } as const;

/** The parameters new hashes are made with in this process. */
function todaysParams(): { N: number; r: number; p: number } {
  return getConfig().passwordHashCost === "test" ? TEST_PASSWORD_PARAMS : PASSWORD_PARAMS;
}
const KEY_LENGTH = 64;
/** The most memory a stored hash may ask for: today's and every earlier setting (N=2^15, r=8: 32 MiB). */
const MAX_HASH_MEMORY = 32 * 1024 * 1024;
/** Node's scrypt limit, with room for OpenSSL's own buffers beside 128 x N x r. */
const MAXMEM = 2 * MAX_HASH_MEMORY;

/** At most this many hashes at once in this process: 2 x 16 MiB, whatever the traffic. */
export const MAX_CONCURRENT_HASHES = 2;

/**
 * At most this many hashes wait for a slot (ADR 046); one more is refused at
 * once with HashingBusyError (503). The last one admitted starts within two
 * hash times (about 0.3 s at the measured 160 ms a hash), and five checks at
 * once (the most the sign-in throttle lets one account or one address start)
 * all get a slot. Throttles keep one address from filling the queue; many
 * addresses can, and then a newcomer hears "busy" at once instead of waiting
 * behind them.
 */
export const MAX_WAITING_HASHES = 4;

/** What a request hears when no hash slot is free and the queue is full (a 503 with Retry-After). */
export const HASHING_BUSY = "The server is busy checking other passwords. Try again in a few seconds.";

/** No slot for this hash: nothing was checked or stored. Answered as `busyRefusal()`. */
export class HashingBusyError extends Error {
  override name = "HashingBusyError";
  constructor() {
    super(HASHING_BUSY);
  }
}

export type BusyRefusal = { ok: false; status: 503; error: string; retryAfterSeconds: number };

/** The answer to a HashingBusyError: 503, and try again in a second, when the queue has moved on. */
export function busyRefusal(): BusyRefusal {
  return { ok: false, status: 503, error: HASHING_BUSY, retryAfterSeconds: 1 };
}

let running = 0;
const waiting: Array<() => void> = [];

/** How many hashes run now and how many wait for a slot (for tests and diagnostics). */
export function hashConcurrency(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running < MAX_CONCURRENT_HASHES) running++;
  else if (waiting.length >= MAX_WAITING_HASHES) throw new HashingBusyError();
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    // Hand the slot straight to the next waiter, or free it.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return withHashSlot(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { ...options, maxmem: MAXMEM }, (error, key) =>
          error ? reject(error) : resolve(key),
        );
      }),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const params = todaysParams();
  const key = await derive(password, salt, params);
  const { N, r, p } = params;
  return ["scrypt", N, r, p, salt.toString("base64"), key.toString("base64")].join("$");
}

interface StoredHash {
  params: { N: number; r: number; p: number };
  salt: Buffer;
  key: Buffer;
}

const WHOLE = /^\d{1,10}$/;

function parseStored(stored: string): StoredHash | undefined {
  const [scheme, n, r, p, salt, key, extra] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !key || extra !== undefined) return undefined;
  if (![n, r, p].every((value) => WHOLE.test(value))) return undefined;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  // Ours are powers of two within the memory cap; anything else is not a hash we wrote.
  const powerOfTwo = params.N > 1 && (params.N & (params.N - 1)) === 0;
  if (!powerOfTwo || params.r < 1 || params.p < 1 || params.p > 16 || 128 * params.N * params.r > MAX_HASH_MEMORY) {
    return undefined;
  }
  return { params, salt: Buffer.from(salt, "base64"), key: Buffer.from(key, "base64") };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStored(stored);
  if (!parsed) return false;
  const actual = await derive(password, parsed.salt, parsed.params);
  return actual.length === parsed.key.length && timingSafeEqual(actual, parsed.key);
}

/** Whether a stored hash was made with other parameters than today's (rehash it at the next sign-in). */
export function needsRehash(stored: string): boolean {
  const parsed = parseStored(stored);
  if (!parsed) return true;
  const { N, r, p } = parsed.params;
  const today = todaysParams();
  return N !== today.N || r !== today.r || p !== today.p || parsed.key.length !== KEY_LENGTH;
}

/**
 * A real hash of nothing, made with today's parameters, checked for unknown
 * e-mails so both paths cost the same work and answer alike.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString("hex")).catch((error: unknown) => {
    // Refused for want of a slot (or failed): the next caller makes it again.
    decoy = undefined;
    throw error;
  });
  return decoy;
}
