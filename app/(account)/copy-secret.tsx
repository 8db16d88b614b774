"use client";

import { useRef, useState } from "react";

// A secret shown once: selectable, with a copy button and the warning that goes with it.
export function CopySecret({ secret, label = "API key" }: { secret: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const field = useRef<HTMLInputElement>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
    } catch {
      // No clipboard permission (plain http on another host): select it for Ctrl+C instead.
      field.current?.select();
      document.execCommand?.("copy");
    }
    setCopied(true);
    window.setTimeout(() => setCopied(false), 2000);
  }

  return (
    <div className="secret" data-testid="secret">
      <label className="secret-label">
        {label}
        <span className="secret-row">
          <input ref={field} className="secret-value" readOnly value={secret} onFocus={(e) => e.currentTarget.select()} spellCheck={false} />
          <button type="button" className="button small" onClick={copy}>{copied ? "Copied" : "Copy"}</button>
        </span>
      </label>
      <p className="secret-warning" role="note">
        Shown once. We keep only its hash: copy it now and store it somewhere safe. If it is lost, rotate the key.
      </p>
    </div>
  );
}
