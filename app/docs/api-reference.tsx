"use client";

import type { AnyApiReferenceConfiguration } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";
import dynamic from "next/dynamic";
import { useMemo } from "react";

// Scalar's renderer is a Vue app mounted into a div; it only runs in the browser, so it is loaded
// without server rendering. Everything it needs ships in the bundle: no fonts, scripts or services
// are fetched from Scalar's servers (fonts, telemetry, the AI agent and MCP are switched off).
const ApiReferenceReact = dynamic(
  () => import("@scalar/api-reference-react").then((m) => m.ApiReferenceReact),
  { ssr: false, loading: () => <p className="docs-loading">Loading the API reference…</p> },
);

const FONT = 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const MONO = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";

export function ApiReference({ specUrl }: { specUrl: string }) {
  // Stable across renders: the wrapper pushes every new configuration object into the Vue app.
  const configuration = useMemo<AnyApiReferenceConfiguration>(() => ({
    url: specUrl,
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never",
    hideClientButton: false,
    documentDownloadType: "json",
    // About twenty operations: render every tag open, so the page reads (and searches) top to bottom.
    defaultOpenAllTags: true,
    theme: "default",
    forceDarkModeState: "light",
    hideDarkModeToggle: true,
    customCss: `.light-mode, .light-mode .scalar-app, .scalar-app { --scalar-font: ${FONT}; --scalar-font-code: ${MONO}; --scalar-color-accent: #d6372b; }`,
  }), [specUrl]);
  return <ApiReferenceReact configuration={configuration} />;
}
