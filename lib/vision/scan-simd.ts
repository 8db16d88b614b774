// The coarse scan's squared distances (search.ts `nearest`) in WebAssembly SIMD: 16 int8 values
// a step instead of one. The exhaustive scan was about a third of identify's CPU on photos that
// try several outlines (hard photos, non-cards). The module is a few dozen instructions, written
// out here byte by byte (no toolchain, nothing downloaded); a unit test checks it against the
// plain scan on every row. Where WebAssembly SIMD is missing, search.ts scans in JavaScript.

/** A row's stride in the module's memory: 120 bytes padded with zeros to 8 × 16. */
const STRIDE = 128;
const CHUNKS = STRIDE / 16;

const SIMD = 0xfd;
const I32 = 0x7f;
const V128 = 0x7b;
/** Opcodes: the core ones, then SIMD's (after the 0xfd prefix, LEB128). */
const OP = {
  block: 0x02, loop: 0x03, br: 0x0c, brIf: 0x0d, end: 0x0b, localGet: 0x20, localSet: 0x21, localTee: 0x22,
  i32Store: 0x36, i32Const: 0x41, i32GeU: 0x4f, i32Add: 0x6a, i32Shl: 0x74, void: 0x40,
} as const;
const VOP = { load: 0x00, const: 0x0c, extractLane: 0x1b, extendLowS: 0x87, extendHighS: 0x88, i16Sub: 0x91, i32Add: 0xae, dot: 0xba } as const;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}
const simd = (op: number, ...imm: number[]) => [SIMD, ...uleb(op), ...imm];
const name = (s: string) => [...uleb(s.length), ...Buffer.from(s, "latin1")];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const vector = (items: number[][]) => [...uleb(items.length), ...items.flat()];

/**
 * scan(rows, n, q, out): for each of the n rows at `rows` (STRIDE bytes each), the sum over its
 * bytes of (q − row)² as int8 differences, stored as i32 at out[i]. Locals: 0 rows, 1 n, 2 q,
 * 3 out, 4 i, 5 p (the row), 6 acc, 7 c (a chunk of the row), 8 d, 9… q's chunks.
 */
function scanBody(): number[] {
  const [rows, n, q, out, i, p, acc, c, d] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const qk = (k: number) => 9 + k;
  const code: number[] = [];
  for (let k = 0; k < CHUNKS; k++) code.push(OP.localGet, q, ...simd(VOP.load, 4, ...uleb(16 * k)), OP.localSet, qk(k));
  code.push(OP.block, OP.void, OP.loop, OP.void);
  code.push(OP.localGet, i, OP.localGet, n, OP.i32GeU, OP.brIf, 1);
  code.push(OP.localGet, rows, OP.localGet, i, OP.i32Const, 7, OP.i32Shl, OP.i32Add, OP.localSet, p);
  code.push(...simd(VOP.const, ...new Array(16).fill(0)), OP.localSet, acc);
  for (let k = 0; k < CHUNKS; k++) {
    code.push(OP.localGet, p, ...simd(VOP.load, 4, ...uleb(16 * k)), OP.localSet, c);
    for (const half of [VOP.extendLowS, VOP.extendHighS]) {
      // acc += dot(d, d), d = widen(q_k) − widen(c): int8 differences fit int16, their squares' pair sums int32.
      code.push(OP.localGet, acc, OP.localGet, qk(k), ...simd(half), OP.localGet, c, ...simd(half), ...simd(VOP.i16Sub));
      code.push(OP.localTee, d, OP.localGet, d, ...simd(VOP.dot), ...simd(VOP.i32Add), OP.localSet, acc);
    }
  }
  code.push(OP.localGet, out, OP.localGet, i, OP.i32Const, 2, OP.i32Shl, OP.i32Add);
  code.push(OP.localGet, acc, ...simd(VOP.extractLane, 0), OP.localGet, acc, ...simd(VOP.extractLane, 1), OP.i32Add);
  code.push(OP.localGet, acc, ...simd(VOP.extractLane, 2), OP.i32Add, OP.localGet, acc, ...simd(VOP.extractLane, 3), OP.i32Add);
  code.push(OP.i32Store, 2, 0);
  code.push(OP.localGet, i, OP.i32Const, 1, OP.i32Add, OP.localSet, i, OP.br, 0, OP.end, OP.end, OP.end);
  const locals = vector([[2, I32], [3 + CHUNKS, V128]]);
  return [...uleb(locals.length + code.length), ...locals, ...code];
}

function moduleBytes(): Uint8Array<ArrayBuffer> {
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vector([[0x60, 4, I32, I32, I32, I32, 0]])),
    ...section(3, vector([[0]])),
    ...section(5, vector([[0x00, 1]])),
    ...section(7, vector([[...name("memory"), 0x02, 0], [...name("scan"), 0x00, 0]])),
    ...section(10, vector([scanBody()])),
  ]);
}

export type Scanner = {
  /** The module's memory: the rows' copy, the query and the distances. */
  bytes: number;
  /** Squared distance of `q` (the coarse vector's length) to every row, in row order; valid until the next call. */
  distances(q: Int8Array): Int32Array;
};

/** The rows of `coarse` (`len` bytes each) copied into a SIMD module, or null where it cannot run. */
export function simdScanner(coarse: Int8Array, len: number): Scanner | null {
  if (len > STRIDE) return null;
  const bytes = moduleBytes();
  if (!WebAssembly.validate(bytes)) return null;
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes));
  const memory = exports.memory as WebAssembly.Memory;
  const scan = exports.scan as (rows: number, n: number, q: number, out: number) => void;
  const n = coarse.length / len;
  // Layout: the query, the distances, then the rows (each at a multiple of 16 bytes).
  const outAt = STRIDE;
  const rowsAt = outAt + Math.ceil((n * 4) / STRIDE) * STRIDE;
  const need = rowsAt + n * STRIDE;
  memory.grow(Math.max(0, Math.ceil((need - memory.buffer.byteLength) / 65536)));
  const mem = new Int8Array(memory.buffer);
  for (let r = 0; r < n; r++) mem.set(coarse.subarray(r * len, (r + 1) * len), rowsAt + r * STRIDE);
  const out = new Int32Array(memory.buffer, outAt, n);
  return {
    bytes: memory.buffer.byteLength,
    distances(q: Int8Array): Int32Array {
      mem.fill(0, 0, STRIDE);
      mem.set(q.subarray(0, len), 0);
      scan(rowsAt, n, 0, outAt);
      return out;
    },
  };
}
