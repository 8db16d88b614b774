"use client";

import { useEffect, useRef, useState, type PointerEvent } from "react";
import { ratiosOf, type Edges } from "@/lib/centering/ratios";
import { rectify, widen, type Quad } from "@/lib/vision/outline";

// The dashboard's centering tool. The photo is measured by POST /v1/centering/measure, called
// for the signed-in account (no key: /dashboard/centering/measure, session-call.ts); its lines
// are drawn over the image the lines are in (the upload, or for a photo in perspective the
// card squared up here in the browser from the corners the API returns); a person drags them
// or types positions; POST /v1/centering/confirm turns them into grade ceilings.

type Rectified = { quad: Quad; width: number; height: number; card: Edges };
type Measured = { width: number; height: number; outer: Edges; inner: Edges; rectified: Rectified | null };
type Ceiling = { house: string; max_grade: string | null; label: string | null; limited_by: string | null };
type Lines = { outer: Edges; inner: Edges };
type LineId = `${keyof Lines}.${keyof Edges}`;

const SIDES: (keyof Edges)[] = ["left", "right", "top", "bottom"];
// Where an earlier version kept a pasted key for the tab: cleared, the session is used now.
const OLD_KEY_STORE = "pokeprice.centering.key";

/** The squared-up raster the API measured in, drawn from the photo by the server's own mapping. */
async function squareUp(src: string, r: Rectified): Promise<string> {
  const img = new Image();
  img.src = src;
  await img.decode();
  const from = document.createElement("canvas");
  [from.width, from.height] = [img.naturalWidth, img.naturalHeight];
  const fctx = from.getContext("2d")!;
  fctx.drawImage(img, 0, 0);
  const pixels = fctx.getImageData(0, 0, from.width, from.height).data;
  const to = document.createElement("canvas");
  [to.width, to.height] = [r.width, r.height];
  const tctx = to.getContext("2d")!;
  const out = tctx.createImageData(r.width, r.height);
  // The API gives corners as pixel edges; rectify samples at pixel centres.
  const centres = r.quad.map((p) => ({ x: p.x - 0.5, y: p.y - 0.5 })) as Quad;
  const around = widen(centres, r.card.left / (r.card.right - r.card.left), r.card.top / (r.card.bottom - r.card.top));
  rectify({ data: pixels, w: from.width, h: from.height }, around, r.width, r.height, 4, out.data);
  tctx.putImageData(out, 0, 0);
  return to.toDataURL("image/jpeg", 0.9);
}

/** A centering route for the signed-in account; the session cookie goes along (same origin). */
async function api(route: "measure" | "confirm", body: BodyInit, json = false) {
  const res = await fetch(`/dashboard/centering/${route}`, {
    method: "POST", body, credentials: "same-origin",
    headers: { "x-dashboard-call": "1", ...(json ? { "content-type": "application/json" } : {}) },
  });
  const data = await res.json().catch(() => ({}));
  if (res.status === 401) throw new Error("Your session has ended. Sign in again.");
  if (!res.ok) {
    const id = data.error?.request_id ? ` (request ${data.error.request_id})` : "";
    throw new Error(`${data.error?.code ?? res.status}: ${data.error?.message ?? "the call failed"}${id}`);
  }
  const cost = res.headers.get("x-credits-cost");
  return { data: data.data, cost: cost === null ? null : Number(cost) };
}

export function CenteringTool() {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [image, setImage] = useState<{ src: string; width: number; height: number } | null>(null);
  const [lines, setLines] = useState<Lines | null>(null);
  const [ceilings, setCeilings] = useState<Ceiling[] | null>(null);
  const [drag, setDrag] = useState<LineId | null>(null);
  const svg = useRef<SVGSVGElement>(null);

  const [spent, setSpent] = useState<number | null>(null);

  useEffect(() => sessionStorage.removeItem(OLD_KEY_STORE), []);

  let ratios: { left_right: number; top_bottom: number } | null = null;
  try {
    ratios = lines ? ratiosOf(lines.outer, lines.inner) : null;
  } catch {
    ratios = null;
  }

  async function measure() {
    if (!file) return;
    setBusy(true);
    setError("");
    setCeilings(null);
    try {
      const form = new FormData();
      form.append("image", file);
      const answer = await api("measure", form);
      setSpent(answer.cost);
      const m = answer.data.geometry as Measured;
      const src = URL.createObjectURL(file);
      setImage(m.rectified ? { src: await squareUp(src, m.rectified), width: m.rectified.width, height: m.rectified.height } : { src, width: m.width, height: m.height });
      setLines({ outer: m.outer, inner: m.inner });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function confirm() {
    if (!lines) return;
    setBusy(true);
    setError("");
    try {
      const answer = await api("confirm", JSON.stringify({ front: lines }), true);
      setSpent(answer.cost);
      setCeilings(answer.data.ceilings);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const move = (id: LineId, value: number) => {
    const [group, side] = id.split(".") as [keyof Lines, keyof Edges];
    setLines((l) => (l ? { ...l, [group]: { ...l[group], [side]: Math.round(value * 10) / 10 } } : l));
    setCeilings(null);
  };

  const onMove = (e: PointerEvent<SVGSVGElement>) => {
    if (!drag || !svg.current) return;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.current.getScreenCTM()!.inverse());
    move(drag, drag.endsWith("left") || drag.endsWith("right") ? p.x : p.y);
  };

  return (
    <section className="panel" aria-label="Centering tool">
      <div className="centering-form">
        <label>
          Scan or photo of one face
          <input type="file" accept="image/jpeg,image/png,image/webp" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <button type="button" className="button" disabled={!file || busy} onClick={measure}>{busy && !lines ? "Measuring…" : "Measure"}</button>
        {spent !== null && <p className="muted small" data-testid="centering-cost">Last call: {spent} credit{spent === 1 ? "" : "s"}.</p>}
      </div>
      {error && <p className="notice warn" role="alert">{error}</p>}
      {image && lines && (
        <div className="centering-work">
          <svg ref={svg} viewBox={`0 0 ${image.width} ${image.height}`} className="centering-canvas" role="img" aria-label="The card with its measured lines"
            onPointerMove={onMove} onPointerUp={() => setDrag(null)} onPointerLeave={() => setDrag(null)}>
            <image href={image.src} width={image.width} height={image.height} />
            {(["outer", "inner"] as const).flatMap((group) => SIDES.map((side) => {
              const v = lines[group][side];
              const vertical = side === "left" || side === "right";
              const id = `${group}.${side}` as LineId;
              return (
                <line key={id} x1={vertical ? v : 0} x2={vertical ? v : image.width} y1={vertical ? 0 : v} y2={vertical ? image.height : v}
                  className={`centering-line ${group}`} onPointerDown={(e) => { e.currentTarget.ownerSVGElement?.setPointerCapture(e.pointerId); setDrag(id); }} />
              );
            }))}
          </svg>
          <div>
            <p className="stat-value" data-testid="ratios">
              {ratios ? `${ratios.left_right}/${Math.round((100 - ratios.left_right) * 100) / 100} · ${ratios.top_bottom}/${Math.round((100 - ratios.top_bottom) * 100) / 100}` : "lines out of order"}
            </p>
            <p className="muted">Left/right · top/bottom. Red: the card&apos;s edges; blue: the frame. Drag a line, or type its position in pixels.</p>
            <table className="centering-lines">
              <tbody>
                {(["outer", "inner"] as const).map((group) => (
                  <tr key={group}>
                    <th scope="row">{group === "outer" ? "Card edge" : "Frame"}</th>
                    {SIDES.map((side) => (
                      <td key={side}>
                        <label>
                          {side}
                          <input type="number" step="0.1" value={lines[group][side]} aria-label={`${group === "outer" ? "Card edge" : "Frame"} ${side}`}
                            onChange={(e) => move(`${group}.${side}`, Number(e.target.value))} />
                        </label>
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            <button type="button" className="button" disabled={!ratios || busy} onClick={confirm}>Confirm these lines</button>
            {ceilings && (
              <table className="centering-ceilings" aria-label="Grade ceilings">
                <thead><tr><th>House</th><th>Best grade</th><th>Limited by</th></tr></thead>
                <tbody>
                  {ceilings.map((c) => (
                    <tr key={c.house}><td>{c.house}</td><td>{c.max_grade ? `${c.max_grade} ${c.label ?? ""}` : "below the scale"}</td><td>{c.limited_by ?? "—"}</td></tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
