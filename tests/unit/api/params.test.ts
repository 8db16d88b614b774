import { describe, expect, it } from "vitest";
import { z } from "zod";
import { cursorParam, issueToError, langParam, LANGS, limitParam, orderByParam } from "@/lib/api/params";

const Query = z.strictObject({
  limit: limitParam(),
  cursor: cursorParam,
  orderBy: orderByParam(["name", "id"], "id"),
  lang: langParam,
});
const VALID = Object.keys(Query.shape);

/** What the pipeline does: parse with reportInput, turn the first issue into the error. */
function errorOf(query: Record<string, unknown>, reportInput = true, where: "query" | "path" | "body" = "query") {
  const r = Query.safeParse(query, { reportInput });
  if (r.success) throw new Error(`expected ${JSON.stringify(query)} to fail`);
  return issueToError(r.error.issues[0]!, where, VALID, query);
}

describe("limitParam", () => {
  it("defaults to 50 and coerces the query string", () => {
    expect(Query.parse({}).limit).toBe(50);
    expect(Query.parse({ limit: "12" }).limit).toBe(12);
    expect(Query.parse({ limit: "250" }).limit).toBe(250);
    expect(z.strictObject({ limit: limitParam(25) }).parse({}).limit).toBe(25);
  });
});

describe("issueToError", () => {
  it("names what a number parameter was sent, not the NaN it became", () => {
    expect(errorOf({ limit: "abc" })).toMatchObject({ code: "INVALID_PARAMETER", message: "limit must be a number (got 'abc').", details: { parameter: "limit" } });
    expect(errorOf({ limit: "1.5" }).message).toBe("limit must be a whole number (got '1.5').");
    expect(errorOf({ limit: "x".repeat(100) }).message).toBe(`limit must be a number (got '${"x".repeat(40)}…').`);
  });

  it.each(["page", "offset"])("answers %s with INVALID_PARAMETER and did_you_mean cursor", (param) => {
    const err = errorOf({ [param]: "2" });
    expect(err.code).toBe("INVALID_PARAMETER");
    expect(err.details).toEqual({ parameter: param, did_you_mean: "cursor" });
  });

  it("names an unknown parameter and lists the valid ones", () => {
    const err = errorOf({ foo: "1" });
    expect(err.code).toBe("INVALID_PARAMETER");
    expect(err.details).toEqual({ parameter: "foo", valid_parameters: VALID });
  });

  it.each([["251", 251], ["300", 300], ["100000", 100000]])("answers limit=%s with LIMIT_EXCEEDED, max and requested", (limit, requested) => {
    const err = errorOf({ limit });
    expect(err.code).toBe("LIMIT_EXCEEDED");
    expect(err.status).toBe(400);
    expect(err.details).toEqual({ max: 250, requested });
  });

  it("still answers LIMIT_EXCEEDED when the parse did not report the input", () => {
    const err = errorOf({ limit: "300" }, false);
    expect(err.code).toBe("LIMIT_EXCEEDED");
    expect(err.details?.max).toBe(250);
    expect(err.details?.requested).toBeUndefined();
  });

  it.each(["0", "-1", "abc", "1.5", ""])("answers limit=%j with INVALID_PARAMETER naming limit", (limit) => {
    const err = errorOf({ limit });
    expect(err.code).toBe("INVALID_PARAMETER");
    expect(err.details).toMatchObject({ parameter: "limit" });
  });

  it("lists the valid values of an enum", () => {
    const err = errorOf({ lang: "xx" });
    expect(err.code).toBe("INVALID_PARAMETER");
    expect(err.details).toEqual({ parameter: "lang", valid_values: [...LANGS] });
  });

  it("keeps a parameter's own code when it is merely too long", () => {
    const err = errorOf({ cursor: "x".repeat(4001) });
    expect(err.code).toBe("INVALID_CURSOR");
    expect(err.details).toEqual({ parameter: "cursor", max_length: 4000 });
  });

  it("answers body problems with INVALID_PARAMETER naming the field path (CONTRACT.md: a malformed address)", () => {
    const Body = z.object({ email: z.email(), plan: z.object({ name: z.string() }) });
    const r = Body.safeParse({ email: "nope", plan: { name: "x" } });
    expect(r.success).toBe(false);
    const err = issueToError(r.error!.issues[0]!, "body", []);
    expect(err.code).toBe("INVALID_PARAMETER");
    expect(err.details).toEqual({ parameter: "email" });
    const nested = Body.safeParse({ email: "a@b.co", plan: {} });
    expect(issueToError(nested.error!.issues[0]!, "body", []).details).toEqual({ parameter: "plan.name" });
  });

  it("passes through the code and details of a custom issue", () => {
    const Ids = z.string().superRefine((v, ctx) => {
      const n = v.split(",").length;
      if (n > 2) ctx.addIssue({ code: "custom", message: "too many ids", params: { code: "LIMIT_EXCEEDED", details: { max: 2, requested: n } } });
    });
    const r = z.strictObject({ ids: Ids }).safeParse({ ids: "a,b,c" });
    const err = issueToError(r.error!.issues[0]!, "query", ["ids"]);
    expect(err.code).toBe("LIMIT_EXCEEDED");
    expect(err.message).toBe("too many ids");
    expect(err.details).toEqual({ max: 2, requested: 3 });
  });
});
