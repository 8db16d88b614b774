"use server";

import { revalidatePath } from "next/cache";
import { ApiError } from "@/lib/api/errors";
import { addKey, deleteKey, rotateKey } from "@/lib/accounts/keys";
import { resendConfirmation } from "@/lib/accounts/signup";
import type { Account } from "@/lib/accounts/types";
import { signedIn } from "../server";
import { expiryOf } from "./expiry";

// The dashboard's key management, scoped to the signed-in person's account. Every action
// checks the session again: a server action is an endpoint anyone can call.

export type NewKeyView = { id: string; name: string; prefix: string; secret: string; expiresAt: string | null };
export type KeyActionResult = { ok: true; key?: NewKeyView; replaced?: string } | { ok: false; error: string };

const SIGNED_OUT: KeyActionResult = { ok: false, error: "Your session has ended. Sign in again." };

async function mine(): Promise<Account | null> {
  return (await signedIn())?.account ?? null;
}

const validId = (id: unknown): id is string => typeof id === "string" && /^key_[0-9A-Za-z]{1,64}$/.test(id);

export async function createKeyAction(name: unknown, expiry?: unknown): Promise<KeyActionResult> {
  const account = await mine();
  if (!account) return SIGNED_OUT;
  const clean = typeof name === "string" ? name.trim().replace(/\s+/g, " ") : "";
  if (clean.length > 100) return { ok: false, error: "A key name has at most 100 characters." };
  const until = expiryOf(expiry);
  if (!until.ok) return until;
  let key;
  try {
    key = await addKey(account.id, clean || "key", until.at);
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, error: err.message };
    throw err;
  }
  revalidatePath("/dashboard");
  return { ok: true, key: { id: key.id, name: key.name, prefix: key.prefix, secret: key.secret, expiresAt: key.expiresAt } };
}

export async function rotateKeyAction(id: unknown): Promise<KeyActionResult> {
  const account = await mine();
  if (!account) return SIGNED_OUT;
  const key = validId(id) ? await rotateKey(account.id, id) : undefined;
  if (!key) return { ok: false, error: "That key does not exist on this account any more." };
  revalidatePath("/dashboard");
  return { ok: true, key: { id: key.id, name: key.name, prefix: key.prefix, secret: key.secret, expiresAt: key.expiresAt }, replaced: id as string };
}

export async function deleteKeyAction(id: unknown): Promise<KeyActionResult> {
  const account = await mine();
  if (!account) return SIGNED_OUT;
  if (!validId(id) || !(await deleteKey(account.id, id))) return { ok: false, error: "That key does not exist on this account any more." };
  revalidatePath("/dashboard");
  return { ok: true };
}

export async function resendMyConfirmationAction(): Promise<{ message: string }> {
  const account = await mine();
  if (!account) return { message: "Your session has ended. Sign in again." };
  if (account.emailConfirmedAt) return { message: "Your address is confirmed already." };
  try {
    await resendConfirmation(account.id);
  } catch (err) {
    if (err instanceof ApiError) return { message: `${err.message} Check your mail for the links we sent.` };
    throw err;
  }
  return { message: `We sent a new confirmation link to ${account.email}.` };
}
