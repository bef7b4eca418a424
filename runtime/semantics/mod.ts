/**
 * The semantic tree: nodes, revisions, tree text and JSON, query, mirror and change history.
 *
 * @module
 */

export * from "./node.ts";
export * from "./tree.ts";
export * from "./tree_text.ts";
export * from "./tree_view.ts";
export * from "./on_screen.ts";
export * from "./tree_json.ts";
export * from "./query.ts";
export * from "./mirror.ts";
export * from "./changes.ts";
