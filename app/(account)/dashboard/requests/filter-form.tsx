"use client";

import { useRouter } from "next/navigation";
import type { FormEvent, ReactNode } from "react";
import { filterSearch, readFilters } from "./filters";

// The request log's filter form: a GET form (it works without script), which in the browser
// goes straight to the tidy URL of its filters (no empty fields, a pasted request id reduced to
// the id) so that the address bar holds a link to the filtered view.
export function FilterForm({ action, children, className }: { action: string; children: ReactNode; className?: string }) {
  const router = useRouter();
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const raw: Record<string, string> = {};
    for (const [k, v] of new FormData(e.currentTarget)) if (typeof v === "string") raw[k] = v;
    const q = filterSearch(readFilters(raw));
    router.push(q ? `${action}?${q}` : action, { scroll: false });
  }
  return (
    <form className={className} method="get" action={action} role="search" aria-label="Filter requests" onSubmit={submit}>
      {children}
    </form>
  );
}
