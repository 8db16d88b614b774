// A new key's expiry as the dashboard offers it.

const DAY_MS = 86_400_000;
const MAX_EXPIRY_DAYS = 5 * 366;

/**
 * The expiry of a new key: "none", "30" or "90" days from now, or a date (YYYY-MM-DD), the key
 * then working to the end of that day in UTC.
 */
export function expiryOf(choice: unknown, now = Date.now()): { ok: true; at: string | null } | { ok: false; error: string } {
  if (choice === undefined || choice === null || choice === "" || choice === "none") return { ok: true, at: null };
  if (choice === "30" || choice === "90") return { ok: true, at: new Date(now + Number(choice) * DAY_MS).toISOString() };
  if (typeof choice === "string" && /^\d{4}-\d{2}-\d{2}$/.test(choice)) {
    const end = Date.parse(`${choice}T23:59:59Z`);
    if (!Number.isFinite(end) || new Date(end).toISOString().slice(0, 10) !== choice) return { ok: false, error: "That expiry date does not exist." };
    if (end <= now) return { ok: false, error: "An expiry date must be today or later." };
    if (end - now > MAX_EXPIRY_DAYS * DAY_MS) return { ok: false, error: "An expiry date is at most five years away; choose Never instead." };
    return { ok: true, at: new Date(end).toISOString() };
  }
  return { ok: false, error: "Choose an expiry: never, 30 or 90 days, or a date." };
}
