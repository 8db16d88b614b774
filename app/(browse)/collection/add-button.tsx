import Link from "next/link";
import { languagesOf, printingsOf } from "@/lib/collection/model";
import { cardsByIds } from "@/lib/collection/service";
import { AddForm } from "./add-form";
import { sessionAccount } from "./session";
import "../collection.css";

/**
 * "Add to collection" for a card page or a search result (a server component):
 *
 *   import { AddToCollection } from "@/app/(browse)/collection/add-button";
 *   <AddToCollection cardId={card.id} />            // card page: quantity, condition, printing, language, price paid
 *   <AddToCollection cardId={row.id} compact card={{ name: row.name, variants: row.variants, languages: row.languages }} />
 *                                                   // a result row: one NM copy of the first printing, one button
 *
 * Signed out, it is a link to sign in. The form posts to a server action (works without
 * script); the printings offered are the card's variants from the catalogue.
 */
export async function AddToCollection({ cardId, compact = false, card: given }: {
  cardId: string; compact?: boolean;
  /** The card as the page already has it (a search result: name, variants, languages): saves a lookup per row. */
  card?: { name: string; variants?: unknown; languages?: string[] | null };
}) {
  const account = await sessionAccount();
  if (!account) {
    return compact
      ? <Link href="/sign-in" className="add-signin">Sign in to collect</Link>
      : <p className="add-signin"><Link href="/sign-in">Sign in</Link> to add this card to your collection.</p>;
  }
  const card = given
    ? { id: cardId, name: given.name, printings: printingsOf(given.variants), languages: languagesOf(given.languages) }
    : (await cardsByIds([cardId])).get(cardId);
  if (!card) return null;
  return <AddForm cardId={card.id} cardName={card.name} printings={card.printings} languages={card.languages} compact={compact} />;
}
