"use client";

import { useEffect, useState } from "react";

/**
 * The origin the dashboard's curl lines call: the configured public one (PUBLIC_BASE_URL) when
 * there is one, else the address the browser is on. The server's guess from the Host header is
 * only the first paint's: a page rendered inside the sign-in's redirect knows the server by the
 * name it listens on (HOST: 0.0.0.0 by default), not the one the browser used.
 */
export function useOrigin(server: string, fixed: boolean): string {
  const [origin, setOrigin] = useState(server);
  useEffect(() => {
    if (!fixed) setOrigin(window.location.origin);
  }, [fixed]);
  return origin;
}
