import Link from "next/link";
import { cardsByIds } from "@/lib/collection/service";
import { AddForm } from "./add-form";
import { sessionAccount } from "./session";
import "../collection.css";

/**
 * "Add to collection" for a card page or a search result (a server component):
 *
 *   import { AddToCollection } from "@/app/(browse)/collection/add-button";
 *   <AddToCollection cardId={card.id} />            // card page: quantity, condition, printing, language, price paid
 *   <AddToCollection cardId={row.id} compact />     // a result row: one NM copy of the first printing, one button
 *
 * Signed out, it is a link to sign in. The form posts to a server action (works without
 * script); the printings offered are the card's variants from the catalogue.
 */
export async function AddToCollection({ cardId, compact = false }: { cardId: string; compact?: boolean }) {
  const account = await sessionAccount();
  if (!account) {
    return <p className="add-signin"><Link href="/sign-in">Sign in</Link> to add this card to your collection.</p>;
  }
  const card = (await cardsByIds([cardId])).get(cardId);
  if (!card) return null;
  return <AddForm cardId={card.id} cardName={card.name} printings={card.printings} languages={card.languages} compact={compact} />;
}
