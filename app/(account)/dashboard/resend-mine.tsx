"use client";

import { useState, useTransition } from "react";
import { resendMyConfirmationAction } from "./actions";

export function ResendMine() {
  const [message, setMessage] = useState<string | null>(null);
  const [pending, start] = useTransition();
  if (message) return <p role="status"><strong>{message}</strong></p>;
  return (
    <button type="button" className="button secondary small" disabled={pending}
      onClick={() => start(async () => setMessage((await resendMyConfirmationAction()).message))}>
      {pending ? "Sending…" : "Send the link again"}
    </button>
  );
}
