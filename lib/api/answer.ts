// What the pipeline answers before it is a fetch Response: status, headers (lowercase names)
// and body. The app's servers write it to the socket as it is (server/http.ts); Next's mount
// and the in-process tests get the same answer as a Response (toResponse). A Response per
// request (Headers, a body stream, then Readable.fromWeb and a stream pipeline to the socket)
// was about a tenth of a cached card answer's CPU.

export type Answer = {
  status: number;
  /** Lowercase names, one value each. */
  headers: Record<string, string>;
  /** Set-Cookie lines, when any (a Response made outside the pipeline). */
  cookies?: string[];
  /** Text or bytes, a stream (a file, or a Response's body), or none. */
  body: string | Uint8Array | ReadableStream<Uint8Array> | null;
};

export function toResponse(a: Answer): Response {
  const res = new Response(a.body as BodyInit | null, { status: a.status, headers: a.headers });
  for (const c of a.cookies ?? []) res.headers.append("set-cookie", c);
  return res;
}

/** A Response made elsewhere (OPTIONS, 405, the catch-all) as an answer. */
export function fromResponse(res: Response): Answer {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = res.headers.getSetCookie();
  return cookies.length ? { status: res.status, headers, cookies, body: res.body } : { status: res.status, headers, body: res.body };
}
