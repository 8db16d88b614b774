import { describe, expect, it } from "vitest";
import { seriesColour, setSymbolSvg } from "@/lib/catalog/symbol";

describe("set symbols", () => {
  it("draws the code in capitals on the series' colour, with the set's name as its title", () => {
    const svg = setSymbolSvg({ badge: "sv3pt5", seriesId: "scarlet-violet", name: "151 symbol" });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain(">SV3PT5</text>");
    expect(svg).toContain(`fill="${seriesColour("scarlet-violet")}"`);
    expect(svg).toContain("<title>151 symbol</title>");
    expect(svg).not.toContain("textLength");
  });

  it("fits long codes inside the badge", () => {
    const svg = setSymbolSvg({ badge: "tk-xy-latia", seriesId: "xy", name: "x" });
    expect(svg).toContain('textLength="100"');
    expect(Number(/font-size="(\d+)"/.exec(svg)![1])).toBeLessThan(22);
  });

  it("escapes what it prints", () => {
    const svg = setSymbolSvg({ badge: "<a&b>", seriesId: "base", name: `"quoted" <name>` });
    expect(svg).not.toMatch(/<a&b>|<name>/);
    expect(svg).toContain("&#60;A&#38;B&#62;");
  });

  it("gives every series a colour, a stable one for series it does not list", () => {
    expect(seriesColour("base")).toMatch(/^#/);
    expect(seriesColour("some-new-era")).toBe(seriesColour("some-new-era"));
    expect(seriesColour("some-new-era")).toMatch(/^hsl\(\d+ 45% 30%\)$/);
  });
});
