import { getDb } from "@/lib/db/client";
import { configuredOrigin } from "@/lib/env";
import { enqueue, type Mail } from "@/lib/mail/outbox";
import { alertStep } from "./model";
import { headlinePrices } from "./prices";
import { cardsByIds } from "./service";
import { disarm, notePrice, rearm, selectAllWatches, type WatchToCheck } from "./queries/items";

// Price alerts (docs/collection.md "Price alerts"): a mail when a card's composite index crosses
// the threshold, once per crossing. The claim is the alert's `armed` flag: the mail is put in the
// outbox in the transaction that turns it off (one caller wins, however many checks run), and a
// later check that finds the price back on the other side turns it on again.

const eur = (v: number) => v.toLocaleString("en", { style: "currency", currency: "EUR" });

export function priceAlertMail(w: Pick<WatchToCheck, "accountId" | "email" | "cardId" | "direction" | "threshold">, name: string, price: number, origin = configuredOrigin()): Mail {
  const base = origin.replace(/\/+$/, "");
  const word = w.direction === "above" ? "risen to" : "fallen to";
  return {
    to: w.email,
    subject: `PokéPrice: ${name} is ${w.direction} ${eur(w.threshold)}`,
    text: [
      `The composite index of ${name} (${w.cardId}) has ${word} ${eur(price)}: your alert was ${w.direction} ${eur(w.threshold)}.`,
      "",
      `You will hear again when the price has gone back ${w.direction === "above" ? "below" : "above"} ${eur(w.threshold)} and crosses once more.`,
      "",
      `The card: ${base}/cards/${encodeURIComponent(w.cardId)}`,
      `Your alerts: ${base}/collection#alerts`,
    ].join("\n"),
    kind: "price_alert",
    accountId: w.accountId,
  };
}

export type AlertSent = { watchId: number; accountId: string; cardId: string; price: number };

/**
 * Checks every alert against its card's composite index today: mails each crossing once and
 * re-arms the alerts whose price went back. Safe to run anywhere at once.
 */
export async function checkWatchlist(now = Date.now()): Promise<{ sent: AlertSent[]; rearmed: number; checked: number }> {
  const db = await getDb();
  const sent: AlertSent[] = [];
  let rearmed = 0;
  let checked = 0;
  let after = 0;
  for (;;) {
    const page = await selectAllWatches(after);
    if (!page.length) break;
    after = page.at(-1)!.id;
    const prices = await headlinePrices(page.map((w) => w.cardId), now);
    const names = new Map([...(await cardsByIds([...new Set(page.map((w) => w.cardId))]))].map(([id, c]) => [id, c.name]));
    for (const w of page) {
      checked++;
      const price = prices.get(w.cardId) ?? null;
      const step = alertStep({ direction: w.direction as "above" | "below", threshold: Number(w.threshold), armed: w.armed }, price);
      if (price == null) continue;
      if (step === "mail") {
        const won = await db.transaction(async (tx) => {
          if (!(await disarm(tx, w.id, price))) return false;
          await enqueue(priceAlertMail({ ...w, threshold: Number(w.threshold) }, names.get(w.cardId) ?? w.cardId, price), tx);
          return true;
        });
        if (won) sent.push({ watchId: w.id, accountId: w.accountId, cardId: w.cardId, price });
      } else if (step === "rearm") {
        if (await rearm(w.id, price)) rearmed++;
      } else if (w.lastPrice == null || Number(w.lastPrice) !== price) {
        await notePrice(w.id, price);
      }
    }
  }
  return { sent, rearmed, checked };
}

/** Called once refresh-prices has applied its files and once refresh-index moved the index: never throws into the job. */
export async function afterPriceRefresh(): Promise<void> {
  try {
    const r = await checkWatchlist();
    if (r.sent.length) console.log(`[price-alerts] ${r.sent.length} mailed, ${r.rearmed} re-armed, ${r.checked} checked`);
  } catch (err) {
    console.error(`[price-alerts] check failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
