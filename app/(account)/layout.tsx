import type { ReactNode } from "react";
import "./account.css";

// The pages of a person's account: sign-up, sign-in, recovery, the dashboard, and the
// development mailbox. Each page draws the site chrome through <Shell>.
export default function AccountLayout({ children }: { children: ReactNode }) {
  return children;
}
