// Each grading house's centering thresholds, best grade first. A figure is the larger share of
// the two borders on an axis: 55 means 55/45 or better. Where a house's own words were found
// the figure is "official"; otherwise it is our reading of third-party copies ("interpreted").
// docs/centering-standards.md records what was found where.

export const HOUSES = ["PSA", "BGS", "CGC", "SGC"] as const;
export type House = (typeof HOUSES)[number];

export type Band = {
  grade: string;
  label: string;
  /** Largest share on the front's worse axis. */
  front: number;
  /** Largest share on the front's better axis, when the house asks more of it (BGS: "50/50 one way"). */
  front_better_axis?: number;
  /** Largest share on the back's worse axis. */
  back: number;
  status: "official" | "interpreted";
  note?: string;
};

export type Standard = { house: House; name: string; sources: string[]; bands: Band[] };

const PSA_URL = "https://www.psacard.com/gradingstandards";
const BGS_URL = "https://cardmonopoly.blogspot.com/2014/05/bgs-beckett-grading-tip-centering.html";
const CGC_URLS = ["https://www.cgccards.uk/card-grading/grading-scale/", "https://vgmx.com/products/2019-pokemon-old-maid-gloom-psa-10"];

export const STANDARDS: Standard[] = [
  {
    house: "PSA", name: "Professional Sports Authenticator", sources: [PSA_URL],
    bands: [
      { grade: "10", label: "Gem Mint", front: 55, back: 75, status: "official", note: "PSA writes 'approximately 55/45 to 60/40' on the front; the ceiling uses 55/45." },
      { grade: "9", label: "Mint", front: 60, back: 90, status: "official", note: "PSA writes 60/40 to 65/35 and allows 60/40 for a card that meets PSA 9 otherwise." },
      { grade: "8", label: "NM-MT", front: 65, back: 90, status: "official" },
      { grade: "7", label: "NM", front: 70, back: 90, status: "official" },
      { grade: "6", label: "EX-MT", front: 80, back: 90, status: "official" },
      { grade: "5", label: "EX", front: 85, back: 90, status: "official" },
      { grade: "3", label: "VG", front: 90, back: 90, status: "official" },
    ],
  },
  {
    house: "BGS", name: "Beckett Grading Services", sources: [BGS_URL],
    bands: [
      { grade: "10", label: "Pristine", front: 50, back: 55, status: "interpreted", note: "Beckett's wording as quoted gives 60/40 on the back; the stricter 55/45 is used." },
      { grade: "9.5", label: "Gem Mint", front: 55, front_better_axis: 50, back: 60, status: "official" },
      { grade: "9", label: "Mint", front: 55, back: 60, status: "official" },
      { grade: "8.5", label: "NM-MT+", front: 60, back: 70, status: "interpreted" },
      { grade: "8", label: "NM-MT", front: 65, back: 80, status: "interpreted" },
      { grade: "7", label: "NM", front: 70, back: 90, status: "interpreted" },
    ],
  },
  {
    house: "CGC", name: "CGC Cards", sources: CGC_URLS,
    bands: [
      { grade: "10", label: "Gem Mint", front: 55, back: 75, status: "interpreted", note: "CGC's scale as copied by a retailer; CGC's own page asks 'perfect centering' for Pristine 10." },
      { grade: "9", label: "Mint", front: 60, back: 90, status: "interpreted" },
      { grade: "8", label: "NM/Mint", front: 65, back: 90, status: "interpreted" },
      { grade: "7", label: "NM", front: 70, back: 90, status: "interpreted" },
    ],
  },
  {
    house: "SGC", name: "Sportscard Guaranty", sources: [],
    bands: [
      { grade: "10", label: "Gem Mint", front: 55, back: 70, status: "interpreted", note: "No SGC publication was found to confirm these figures." },
      { grade: "9", label: "Mint", front: 60, back: 80, status: "interpreted" },
      { grade: "8", label: "NM/MT", front: 65, back: 90, status: "interpreted" },
      { grade: "7", label: "NM", front: 70, back: 90, status: "interpreted" },
    ],
  },
];
