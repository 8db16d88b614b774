/**
 * The k-th smallest value of `a` (0-based): what `a.sort()[k]` would be, found in linear time on
 * average (quickselect, a median-of-three pivot) by reordering `a` in place, without sorting the
 * rest. The fine distance wants only its cut and the sum below it, three times a candidate: a
 * full sort of its 360 cells was half of its time.
 */
export function kthSmallest(a: Float32Array, k: number): number {
  if (!(k >= 0 && k < a.length)) throw new RangeError(`k ${k} is outside 0..${a.length - 1}`);
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const x = a[lo]!;
    const y = a[(lo + hi) >>> 1]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    // [lo, j] ≤ pivot ≤ [i, hi], and whatever lies between equals the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}
