/**
 * The benchmark app: a list of rows, each a checkbox, a text and a button, with a count of
 * rows done above it.
 *
 * @module
 */

import {
  bind,
  button,
  checkbox,
  column,
  component,
  list,
  row,
  type Signal,
  text,
} from "../runtime/mod.ts";

/** One row's data. */
export interface BenchRow {
  id: number;
  title: string;
  done: Signal<boolean>;
}

/** A root component with `count` rows; `styled`: each row on the surface colour, its title bold in the accent colour. */
export function listApp(count: number, styled = false) {
  return component((cx) => {
    const rows = cx.signal<BenchRow[]>(
      Array.from({ length: count }, (_, index) => ({
        id: index,
        title: `Row ${index}`,
        done: cx.signal(false),
      })),
      { name: "rows" },
    );
    const clicks = cx.signal(0, { name: "clicks" });
    return column(
      text(bind(() => `${clicks.get()} clicks`)),
      list(rows, (item) => {
        const line = row(
          checkbox("Done", item.done),
          styled ? text(item.title).style({ fg: "accent", bold: true }) : text(item.title),
          button("Delete", () => clicks.set(clicks.get() + 1)),
        );
        return styled ? line.style({ bg: "surface" }) : line;
      }, (item) => item.id),
    );
  });
}
