// url.js: what a page reads from its address, as pure functions (tests/js/url.test.js runs them in node).

export const DEFAULT_LIMIT_S = 10;
export const MIN_LIMIT_S = 0.1;
export const MAX_LIMIT_S = 600;

/**
 * The time limit `?limit=SECONDS` asks for, and, if it was unusable, a sentence saying so.
 * @param {string} search  the address's query (`location.search`)
 * @returns {{limit: number, note: string}}
 */
export function timeLimit(search) {
  const params = new URLSearchParams(search);
  const given = params.get("limit");
  if (given === null) return { limit: DEFAULT_LIMIT_S, note: "" };
  const wanted = Number(given);
  if (given.trim() !== "" && Number.isFinite(wanted) && wanted >= MIN_LIMIT_S && wanted <= MAX_LIMIT_S) {
    return { limit: wanted, note: "" };
  }
  return {
    limit: DEFAULT_LIMIT_S,
    note: `?limit= must be a number of seconds from ${MIN_LIMIT_S} to ${MAX_LIMIT_S}: the limit stays ${DEFAULT_LIMIT_S} s.`,
  };
}

/**
 * A program as `#code=` holds it: base64url of its UTF-8 bytes, without padding.
 * @param {string} text
 * @returns {string}
 */
export function encodeProgram(text) {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The program a `#code=` part holds; throws (a TypeError or RangeError) on anything but base64url of UTF-8.
 * @param {string} text
 * @returns {string}
 */
export function decodeProgram(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new TypeError("not base64url");
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/**
 * The `#code=…` part of an address's hash, or null when it has none.
 * @param {string} hash  `location.hash`
 * @returns {string | null}
 */
export function sharedCode(hash) {
  const shared = /^#code=(.*)$/.exec(hash);
  return shared ? shared[1] : null;
}
