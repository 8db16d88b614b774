import { describe, expect, it, vi } from "vitest";

vi.mock("@/lib/catalog/version", () => ({ catalogCache: { version: async () => "1" } }));
const { setRowsHtml } = await import("@/app/(browse)/sets/set-list");

describe("the sets list's HTML rows", () => {
  const row = {
    id: "a<b", name: `x"<script>`, name_en: "y&z", ptcgo_code: null, series: { id: "s", name: "S" }, print_region: "JP",
    release_date: "2020-01-02", printed_total: 1, total: 1, card_count: 3, languages: [],
  };

  it("escapes every value it prints, and links the set and its symbol", () => {
    const html = setRowsHtml([row]);
    expect(html).not.toContain("<script>");
    expect(html).toContain("x&quot;&lt;script&gt;");
    expect(html).toContain(' · y&amp;z');
    expect(html).toContain('href="/sets/a%3Cb"');
    expect(html).toContain('src="/sets/a%3Cb/symbol.svg"');
    expect(html).toContain('<time datetime="2020-01-02">2 Jan 2020</time><span>Japan</span><span>3 cards</span>');
  });

  it("leaves out the English name when it is the name, and the date when there is none", () => {
    const html = setRowsHtml([{ ...row, name: "Jungle", name_en: "Jungle", release_date: null }]);
    expect(html).not.toContain("muted");
    expect(html).toContain("<time>–</time>");
  });
});
