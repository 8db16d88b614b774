import { beforeAll, describe, expect, it } from "vitest";

// The collection page shows only the notices the server put in its redirects: a link cannot
// make the site's alert box say something else.
beforeAll(() => {
  process.env.BETTER_AUTH_SECRET ??= "a test secret of some length for the notice's key";
});
const { noticeQuery, readNotice } = await import("@/lib/collection/notice");
const params = (q: URLSearchParams) => Object.fromEntries(q);

describe("the collection page's notices", () => {
  it("reads what the server signed", () => {
    const q = noticeQuery({ import_errors: "line 2: no card 'x'\nline 3: bad quantity", import_error_count: "2" });
    expect(readNotice(params(q))).toEqual({ import_errors: "line 2: no card 'x'\nline 3: bad quantity", import_error_count: "2" });
  });

  it("shows nothing of a query it did not sign: a made-up text, an altered one, a field added to a signed one", () => {
    expect(readNotice({ error: "Your account is suspended. Re-enter your password at evil.example" })).toEqual({});
    const q = params(noticeQuery({ done: "Quantity saved." }));
    expect(readNotice({ ...q, done: "Quantity saved. Now visit evil.example" })).toEqual({});
    expect(readNotice({ ...q, error: "Your account is suspended." })).toEqual({});
    expect(readNotice({ ...q, sig: "AAAA" })).toEqual({});
    expect(readNotice({ ...q, add: "base1-4", window: "1y" })).toEqual({ done: "Quantity saved." });
  });
});
