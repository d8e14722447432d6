// What the pages read from their address (docs/javascripts/url.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_LIMIT_S, decodeProgram, encodeProgram, sharedCode, timeLimit } from "../../docs/javascripts/url.js";

test("?limit= takes seconds from 0.1 to 600", () => {
  assert.deepEqual(timeLimit(""), { limit: DEFAULT_LIMIT_S, note: "" });
  assert.deepEqual(timeLimit("?limit=3"), { limit: 3, note: "" });
  assert.deepEqual(timeLimit("?preset=linear&limit=0.1"), { limit: 0.1, note: "" });
  assert.deepEqual(timeLimit("?limit=600"), { limit: 600, note: "" });
});

for (const bad of ["?limit=", "?limit=%20", "?limit=0", "?limit=600.5", "?limit=-1", "?limit=Infinity", "?limit=NaN", "?limit=1e9", "?limit=3s"]) {
  test(`${bad} keeps the default and says why`, () => {
    const { limit, note } = timeLimit(bad);
    assert.equal(limit, DEFAULT_LIMIT_S);
    assert.match(note, /^\?limit= must be a number of seconds from 0\.1 to 600: the limit stays 10 s\.$/);
  });
}

test("a program survives #code= whatever its characters", () => {
  for (const program of ["", "L = 1\n", "# ∂L/∂w, in a link\nprint('é', \"\\u0000\")\n", "🙂".repeat(1000), "a\r\nb\tc"]) {
    const encoded = encodeProgram(program);
    assert.match(encoded, /^[A-Za-z0-9_-]*$/);
    assert.equal(decodeProgram(encoded), program);
    assert.equal(decodeProgram(sharedCode("#code=" + encoded) ?? "x"), program);
  }
});

test("a damaged #code= is refused, not half-read", () => {
  assert.throws(() => decodeProgram("abc+/"), TypeError);  // base64, not base64url
  assert.throws(() => decodeProgram("a"));  // cut short
  assert.throws(() => decodeProgram(encodeProgram("é").slice(0, 2)));  // half a character
  assert.throws(() => decodeProgram("_w"), TypeError);  // 0xff: no UTF-8
});

test("sharedCode reads only #code=", () => {
  assert.equal(sharedCode(""), null);
  assert.equal(sharedCode("#section"), null);
  assert.equal(sharedCode("#code=abc"), "abc");
});
