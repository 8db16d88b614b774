import type { Metadata } from "next";
import { NOT_FOUND_METADATA, NotFoundBody } from "@/app/not-found-body";
import { SiteHeader } from "@/app/site-header";

// Every page address that leads nowhere (a mistyped path, the development outbox on a production
// server): answered 404 with the site's header and a way on, instead of Next's bare default page.
// The collector pages have their own (app/(browse)/not-found.tsx); /v1 answers its 404s in the
// API's error envelope.

export const metadata: Metadata = NOT_FOUND_METADATA;

export default function NotFound() {
  return (
    <div className="site">
      <SiteHeader />
      <main className="landing">
        <NotFoundBody />
      </main>
    </div>
  );
}
