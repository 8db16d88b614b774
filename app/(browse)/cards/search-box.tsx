"use client";

import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";

// The search field with card names suggested as the collector types (a combobox: arrows move,
// Enter picks, Escape closes). Without JavaScript it is a plain text field of the GET form.
// A pick searches that exact name: the form is submitted with q set to name:"…".

type Suggestion = { name: string; lang: string | null; cards: number; q: string };

const client = new QueryClient({ defaultOptions: { queries: { staleTime: 5 * 60_000, retry: false, refetchOnWindowFocus: false } } });

export function SearchBox(props: { defaultValue?: string; placeholder: string }) {
  return (
    <QueryClientProvider client={client}>
      <Box {...props} />
    </QueryClientProvider>
  );
}

function useDebounced(value: string, ms: number) {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

async function fetchSuggestions(text: string, signal: AbortSignal): Promise<Suggestion[]> {
  const res = await fetch(`/cards/suggest?q=${encodeURIComponent(text)}`, { signal });
  if (!res.ok) return [];
  return ((await res.json()) as { data: Suggestion[] }).data;
}

// q syntax (a field, a range, quotes) is being typed: names would only get in the way.
const isPlainText = (s: string) => s.trim().length > 0 && !/[:"()[\]*]/.test(s);

function Box({ defaultValue, placeholder }: { defaultValue?: string; placeholder: string }) {
  const [text, setText] = useState(defaultValue ?? "");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const id = useId();
  const typed = useDebounced(text, 60);
  const enabled = open && isPlainText(typed);
  const { data = [] } = useQuery({
    queryKey: ["suggest", typed.trim().toLowerCase() + (/\s$/.test(typed) ? " " : "")],
    queryFn: ({ signal }) => fetchSuggestions(typed, signal),
    enabled,
    placeholderData: (prev) => prev,
  });
  const shown = enabled && isPlainText(text) ? data : [];
  const expanded = shown.length > 0;

  const pick = (s: Suggestion, input: HTMLInputElement | null) => {
    setText(s.q);
    setOpen(false);
    if (input) {
      input.value = s.q;
      input.form?.requestSubmit();
    }
  };

  return (
    <div className="combo">
      <input
        name="q" value={text} placeholder={placeholder} aria-label="Search cards" autoComplete="off" spellCheck={false}
        role="combobox" aria-expanded={expanded} aria-controls={`${id}-list`} aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 ? `${id}-${active}` : undefined}
        onChange={(e) => { setText(e.target.value); setOpen(true); setActive(-1); }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (!expanded) return;
          if (e.key === "ArrowDown") { e.preventDefault(); setActive((a) => (a + 1) % shown.length); }
          else if (e.key === "ArrowUp") { e.preventDefault(); setActive((a) => (a <= 0 ? shown.length - 1 : a - 1)); }
          else if (e.key === "Escape") { setOpen(false); }
          else if (e.key === "Enter" && active >= 0) { e.preventDefault(); pick(shown[active]!, e.currentTarget); }
        }}
      />
      <ul id={`${id}-list`} role="listbox" aria-label="Card names" className="suggestions" hidden={!expanded} data-testid="suggestions">
        {shown.map((s, i) => (
          <li key={s.q} id={`${id}-${i}`} role="option" aria-selected={i === active}
            onMouseDown={(e) => { e.preventDefault(); pick(s, (e.currentTarget.closest(".combo")?.querySelector("input") ?? null) as HTMLInputElement | null); }}>
            <span className="s-name">{s.name}</span>
            {s.lang && <span className="s-lang">{s.lang}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
