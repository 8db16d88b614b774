// The yardstick of `npm run bench`: a route handler that returns constant JSON, so the
// benchmark can state the API's routes as a ratio of Next.js's own cost on this machine.
// Answers only when the benchmark starts the server with BENCH_ROUTES=1.
export async function GET(): Promise<Response> {
  if (process.env.BENCH_ROUTES !== "1") return new Response(null, { status: 404 });
  return Response.json({ data: { id: "bench", name: "constant", ok: true } });
}
