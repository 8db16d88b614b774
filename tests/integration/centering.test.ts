import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { call, getJson } from "../helpers/api";
import { cardScan, centeringPhoto, imageForm } from "../helpers/images";

// The centering routes that need no photo: grade ceilings from ratios, and the standards.

const post = async (body: unknown) => {
  const res = await call("POST", "/v1/centering/grade", { headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { res, body: await res.json() };
};

describe("POST /v1/centering/grade", () => {
  it("gives each house's ceiling, its front and back bands, and the way to the next band", async () => {
    const { res, body } = await post({ front: { left_right: "57/43", top_bottom: 52 }, back: { left_right: "80/20", top_bottom: "50/50" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-cost")).toBe("1");
    expect(body.data.front).toEqual({ left_right: "57/43", top_bottom: "52/48" });
    const psa = body.data.ceilings.find((c: { house: string }) => c.house === "PSA");
    expect(psa).toMatchObject({ max_grade: "9", front: { grade: "9" }, back: { grade: "9" }, limited_by: "back", next_grade: "10", to_next_band: 5, status: "official" });
    expect(body.data.ceilings.map((c: { house: string }) => c.house)).toEqual(["PSA", "BGS", "CGC", "SGC"]);
  });

  it("refuses a ratio whose sides do not add up, an unknown face and a missing front, naming the field", async () => {
    for (const [bad, parameter] of [
      [{ front: { left_right: "60/60", top_bottom: 50 } }, "front.left_right"],
      [{ front: { left_right: 50, top_bottom: 50 }, side: {} }, "side"],
      [{ back: { left_right: 50, top_bottom: 50 } }, "front"],
    ] as const) {
      const { res, body } = await post(bad);
      expect(res.status).toBe(400);
      expect(body.error.code).toBe("INVALID_PARAMETER");
      expect(JSON.stringify(body.error.details)).toContain(parameter);
      expect(res.headers.get("x-credits-cost")).toBe("0");
    }
  });
});

describe("GET /v1/centering/standards", () => {
  it("four houses with their bands, each figure official or interpreted, and sources", async () => {
    const { res, body } = await getJson("/v1/centering/standards");
    expect(res.status).toBe(200);
    expect(body.count).toBe(4);
    const psa = body.data.find((s: { house: string }) => s.house === "PSA");
    expect(psa.sources[0]).toMatch(/^https:\/\/www\.psacard\.com\//);
    expect(psa.bands[0]).toMatchObject({ grade: "10", front: "55/45", back: "75/25", status: "official" });
    const bgs = body.data.find((s: { house: string }) => s.house === "BGS");
    expect(bgs.bands.find((b: { grade: string }) => b.grade === "9.5")).toMatchObject({ front: "55/45", front_better_axis: "50/50", back: "60/40" });
  });
});

describe("POST /v1/centering/measure", () => {
  const measure = (form: FormData | string, headers: Record<string, string> = {}) =>
    call("POST", "/v1/centering/measure", { body: form, headers }).then(async (res) => ({ res, body: await res.json() }));

  it("measures a flat scan within a tenth of a point, with editable lines and the ceilings", async () => {
    const { res, body } = await measure(imageForm(await cardScan({ left_right: 62, top_bottom: 44 })));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-cost")).toBe("25");
    expect(Math.abs(body.data.left_right - 62)).toBeLessThan(0.5);
    expect(Math.abs(body.data.top_bottom - 44)).toBeLessThan(0.5);
    expect(body.data.limiting_axis).toBe("left_right");
    // The card lies at x 60..690, y 55..935 of the 760 × 1010 scan.
    expect(body.data.geometry.outer.left).toBeCloseTo(60, 0);
    expect(body.data.geometry.outer.bottom).toBeCloseTo(935, 0);
    expect(body.data.ceilings.find((c: { house: string }) => c.house === "PSA").max_grade).toBe("8");
  });

  it("gives the uploaded image's own width and height, whatever the working raster's rounding", async () => {
    const scan = await sharp(await cardScan({ left_right: 55, top_bottom: 50 })).resize(734, 1025, { fit: "fill" }).png().toBuffer();
    const { res, body } = await measure(imageForm(scan));
    expect(res.status).toBe(200);
    expect(body.data.geometry.rectified).toBeNull();
    expect([body.data.geometry.width, body.data.geometry.height]).toEqual([734, 1025]);
  });

  it("squares a phone photo up: ratios within a point, lines in the squared-up raster that confirm turns back into them", async () => {
    const { res, body } = await measure(imageForm(await centeringPhoto({ left_right: 64, top_bottom: 42 })));
    expect(res.status).toBe(200);
    expect(Math.abs(body.data.left_right - 64)).toBeLessThan(1);
    expect(Math.abs(body.data.top_bottom - 42)).toBeLessThan(1);
    const g = body.data.geometry;
    expect(g.rectified.quad).toHaveLength(4);
    expect(g.outer.right).toBeLessThanOrEqual(g.rectified.width);
    const confirmed = await call("POST", "/v1/centering/confirm", {
      headers: { "content-type": "application/json" }, body: JSON.stringify({ front: { outer: g.outer, inner: g.inner } }),
    });
    expect((await confirmed.json()).data.front.left_right).toBe(body.data.ratios.left_right);
  });

  it("a photo of the card upside down answers the card's own ratios, its corners from the card's top-left (issue 15)", async () => {
    const photo = await sharp(await centeringPhoto({ left_right: 66, top_bottom: 41 })).rotate(180).jpeg({ quality: 92 }).toBuffer();
    const { res, body } = await measure(imageForm(photo));
    expect(res.status).toBe(200);
    expect(Math.abs(body.data.left_right - 66)).toBeLessThan(1.5);
    expect(Math.abs(body.data.top_bottom - 41)).toBeLessThan(1.5);
    expect(body.data.uncertainty_pp.left_right).toBeLessThan(2);
    const g = body.data.geometry;
    // Turned, the card's top-left corner lies below its bottom-right in the photo.
    expect(g.rectified.quad[0].y).toBeGreaterThan(g.rectified.quad[2].y);
    const confirmed = await call("POST", "/v1/centering/confirm", {
      headers: { "content-type": "application/json" }, body: JSON.stringify({ front: { outer: g.outer, inner: g.inner } }),
    });
    expect((await confirmed.json()).data.front.left_right).toBe(body.data.ratios.left_right);
  });

  it("a card whose edge cannot be told from the table is refused or answered with a large uncertainty, never a confident wrong ratio", async () => {
    const yellow = { r: 241, g: 207, b: 59 };
    const face = await sharp(await cardScan({ left_right: 76, top_bottom: 40 })).extract({ left: 60, top: 55, width: 630, height: 880 }).png().toBuffer();
    const flat = await sharp({ create: { width: 900, height: 1150, channels: 3, background: yellow } }).composite([{ input: face, left: 135, top: 135 }]).png().toBuffer();
    const photo = await sharp(flat).rotate(14, { background: yellow }).jpeg({ quality: 90 }).toBuffer();
    const { res, body } = await measure(imageForm(photo));
    if (res.status === 400) {
      expect(body.error.code).toBe("INVALID_IMAGE");
      return;
    }
    expect(res.status).toBe(200);
    for (const [axis, truth] of [["left_right", 76], ["top_bottom", 40]] as const) {
      const err = Math.abs(body.data[axis] - truth);
      if (err > 2) expect(body.data.uncertainty_pp[axis]).toBeGreaterThanOrEqual(Math.min(10, err / 2));
    }
  });

  it("a file that is no image, a missing field and a JSON body are 400 INVALID_IMAGE at no cost", async () => {
    const bad = new FormData();
    bad.append("image", new Blob(["hello"], { type: "image/jpeg" }), "x.jpg");
    const other = new FormData();
    other.append("photo", new Blob(["hello"]), "x.jpg");
    for (const [form, headers] of [[bad, {}], [other, {}], [JSON.stringify({ image: "x" }), { "content-type": "application/json" }]] as const) {
      const { res, body } = await measure(form, headers);
      expect(res.status).toBe(400);
      expect(body.error.code).toBe("INVALID_IMAGE");
      expect(res.headers.get("x-credits-cost")).toBe("0");
    }
  });

  it("a blank picture has no card to measure: 400 INVALID_IMAGE, refunded", async () => {
    const blank = await sharp({ create: { width: 400, height: 500, channels: 3, background: "#808080" } }).png().toBuffer();
    const { res, body } = await measure(imageForm(blank, "image/png", "blank.png"));
    expect(res.status).toBe(400);
    expect(body.error.code).toBe("INVALID_IMAGE");
  });
});

describe("POST /v1/centering/confirm", () => {
  it("turns moved lines into ratios and ceilings; lines outside the card are refused", async () => {
    const res = await call("POST", "/v1/centering/confirm", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ front: { outer: { left: 0, right: 100, top: 0, bottom: 140 }, inner: { left: 5.5, right: 95.5, top: 5, bottom: 135 } } }),
    });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.data.front).toEqual({ left_right: "55/45", top_bottom: "50/50", limiting_axis: "left_right" });
    const bad = await call("POST", "/v1/centering/confirm", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ front: { outer: { left: 10, right: 100, top: 0, bottom: 140 }, inner: { left: 5, right: 95, top: 5, bottom: 135 } } }),
    });
    expect(bad.status).toBe(400);
  });

  it("refuses a frame whose lines cross or meet (a point, the left line right of the right one), on either face", async () => {
    const outer = { left: 60, right: 690, top: 55, bottom: 935 };
    const good = { outer, inner: { left: 97, right: 657, top: 88, bottom: 901 } };
    for (const body of [
      { front: { outer, inner: { left: 375, right: 375, top: 495, bottom: 495 } } },
      { front: { outer, inner: { left: 657, right: 97, top: 901, bottom: 88 } } },
      { front: good, back: { outer, inner: { left: 640, right: 80, top: 88, bottom: 901 } } },
    ]) {
      const res = await call("POST", "/v1/centering/confirm", { headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const answer = await res.json();
      expect([res.status, answer.error?.code, res.headers.get("x-credits-cost")]).toEqual([400, "INVALID_PARAMETER", "0"]);
    }
  });
});
