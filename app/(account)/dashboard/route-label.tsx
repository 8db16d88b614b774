import { Fragment } from "react";

/** A route's text with break opportunities after its slashes only (never inside a segment). */
export function RouteText({ text }: { text: string }) {
  const parts = text.split("/");
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>{p}{i < parts.length - 1 ? <>/<wbr /></> : null}</Fragment>
      ))}
    </>
  );
}
