import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: "PokéPrice API: Pokémon TCG catalogue and prices",
  description: "A metered JSON API over 39,000 Pokémon cards, 548 sets, sealed products and their prices.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
