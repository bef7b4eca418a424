/**
 * `show(when, () => view)`: mounts a view while a condition holds and unmounts it when it
 * stops holding. Unmounting disposes the view's scope: its tools go away and its cleanups run.
 *
 * @module
 */

import { disposeOwner, Owner, runWithOwner } from "../reactive/mod.ts";
import { follow, type MountContext, type Prop, View } from "./view.ts";
import { BoxWidget, type Widget } from "./widget.ts";
import { mountWidget } from "./widget_view.ts";

/** A view mounted only while a condition holds. */
export class ShowView extends View {
  readonly #when: Prop<boolean>;
  readonly #render: () => View;

  /** Apps call `show()` instead. */
  constructor(when: Prop<boolean>, render: () => View) {
    super();
    this.#when = when;
    this.#render = render;
  }

  /** Makes an invisible holder and mounts the view into it while the condition holds. */
  mount(context: MountContext): Widget {
    const holder = mountWidget(context, new BoxWidget("show"), null);
    let mounted: { owner: Owner; element: Widget } | null = null;
    follow(context, this.#when, (when) => {
      if (Boolean(when) === (mounted !== null)) return;
      if (mounted !== null) {
        holder.removeChild(mounted.element);
        disposeOwner(mounted.owner);
        mounted = null;
        return;
      }
      const owner = new Owner(context.host.runtime, context.owner);
      const element = runWithOwner(owner, () => {
        const view = this.#render();
        if (!(view instanceof View)) {
          throw new TypeError("show() needs a function that returns a view");
        }
        return view.mount({ host: context.host, owner });
      });
      mounted = { owner, element };
      holder.append(element);
    }, "show()");
    return holder;
  }
}

/** Mounts `render()`'s view while `when` is true, and unmounts it when it turns false. */
export function show(when: Prop<boolean>, render: () => View): ShowView {
  if (typeof render !== "function") {
    throw new TypeError("show() takes a condition and a function () => view");
  }
  return new ShowView(when, render);
}
