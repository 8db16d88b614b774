"use client";

import { useState } from "react";
import { useOrigin } from "./use-origin";

// First calls to paste into a terminal. Right after a key is created or rotated (its secret is
// on the page once) the lines carry that secret; otherwise the key's prefix stands in for it,
// and the panel says so: the secret is never shown again.

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function QuickStart({ origin: serverOrigin, fixedOrigin, secret, prefix }: { origin: string; fixedOrigin: boolean; secret: string | null; prefix: string | null }) {
  const [copied, setCopied] = useState(false);
  const origin = useOrigin(serverOrigin, fixedOrigin);
  const value = secret ?? prefix ?? "ppk_live_…";
  const lines = [
    `export PPK_KEY=${sq(value)}${secret ? "" : "   # the secret you saved: only its prefix is shown here"}`,
    `curl -H "X-Api-Key: $PPK_KEY" ${sq(`${origin}/v1/me`)}`,
    `curl -H "X-Api-Key: $PPK_KEY" ${sq(`${origin}/v1/cards?q=name:charizard&limit=3&select=name,set,number`)}`,
    `curl -H "X-Api-Key: $PPK_KEY" ${sq(`${origin}/v1/cards/base1-4/prices`)}`,
  ];
  const text = lines.join("\n");

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 1500);
    } catch {
      // No clipboard (plain http on another host): the lines are selectable.
    }
  }

  return (
    <div className="quick-start" data-testid="quick-start" data-with-secret={secret ? "yes" : "no"}>
      <div className="quick-start-head">
        <h3>Quick start</h3>
        <button type="button" className="button secondary small" onClick={copy}>{copied ? "Copied" : "Copy lines"}</button>
      </div>
      <pre className="curl">{text}</pre>
      <p className="muted small">
        {secret
          ? "These lines hold your new key's secret: run them now, or copy them somewhere safe. They disappear with the secret."
          : prefix
            ? `The first line holds your key's prefix (${prefix}), not its secret, which is shown once when a key is created or rotated: put the secret you saved in its place.`
            : "Create a key above: the lines then hold its secret, once."}
      </p>
    </div>
  );
}
