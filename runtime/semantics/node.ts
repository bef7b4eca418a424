/**
 * Semantic nodes: what a screen reader, a test or an agent knows of one widget. A node is plain
 * data: role, name, value, states, bounds and children. Nothing here knows about widgets,
 * rendering or MCP.
 *
 * @module
 */

/** The roles a node may have, in the snake_case the tree text uses. */
export const ROLES = [
  "window",
  "group",
  "text",
  "heading",
  "button",
  "text_field",
  "checkbox",
  "switch",
  "radio_button",
  "slider",
  "list",
  "list_item",
  "menu",
  "menu_item",
  "dialog",
  "scroll_view",
  "image",
  "progress_bar",
  "link",
  "tab",
  "tab_list",
  "tab_panel",
  "combo_box",
  "option",
  "radio_group",
  "text_area",
  "table",
  "row",
  "cell",
  "column_header",
  "tree",
  "tree_item",
  "status",
] as const;

/** A node's role. */
export type Role = typeof ROLES[number];

const roleSet: ReadonlySet<string> = new Set(ROLES);

/** True when `role` is one of {@link ROLES}. */
export function isRole(role: string): role is Role {
  return roleSet.has(role);
}

/**
 * The states a node may have, in the order the tree text lists them. Two say where a node
 * is rather than what it is: `offscreen` marks a node scrolled out of its scroll view or
 * outside the window (only the outermost such node carries it: its descendants are
 * offscreen with it), and `modal` marks the topmost open dialog, outside of which actions
 * are refused. `busy` marks work in progress (a spinner, an indeterminate progress bar);
 * `invalid` a value the app refuses (its message is the node's description), `required` a
 * field that must be filled; `destructive` a control whose activation by an agent needs
 * `"confirm": true`; `sorted_ascending` and `sorted_descending` a table's sorted column.
 */
export const STATES = [
  "focused",
  "checked",
  "selected",
  "expanded",
  "collapsed",
  "disabled",
  "secure",
  "hovered",
  "offscreen",
  "modal",
  "busy",
  "invalid",
  "required",
  "destructive",
  "sorted_ascending",
  "sorted_descending",
] as const;

/** One state of a node. */
export type State = typeof STATES[number];

/** The bit of each state in {@link SemanticNode.states}. */
export const STATE_BIT: Readonly<Record<State, number>> = Object.fromEntries(
  STATES.map((state, index) => [state, 1 << index]),
) as Record<State, number>;

/** Lists the states set in a bit mask, in tree-text order. */
export function statesOf(mask: number): State[] {
  const states: State[] = [];
  for (let index = 0; index < STATES.length; index++) {
    if (mask & (1 << index)) states.push(STATES[index]!);
  }
  return states;
}

/** A rectangle in terminal cells. */
export interface Bounds {
  /** The column of the left edge, counted from the origin. */
  readonly x: number;
  /** The row of the top edge, counted from the origin. */
  readonly y: number;
  /** The width in cells. */
  readonly width: number;
  /** The height in cells. */
  readonly height: number;
}

/** The bounds of a node that has not been laid out yet. */
export const NO_BOUNDS: Bounds = Object.freeze({ x: 0, y: 0, width: 0, height: 0 });

/**
 * The children of a node that has none: one shared array, frozen so that nothing can add to
 * it in place (a tree replaces children with `setChildren`). Most nodes are leaves, and an
 * empty array of their own would cost each of them 32 bytes.
 */
export const NO_CHILDREN: SemanticNode[] = Object.freeze([]) as unknown as SemanticNode[];

/**
 * One node of the semantic tree. Fields are written only through {@link SemanticTree} so that
 * each change is recorded for the frame's revision.
 */
export class SemanticNode {
  /** Unique for the life of the app; never reused. */
  readonly id: number;
  /** What kind of widget the node stands for: `button`, `text_field`, ... */
  role: Role;
  /** The accessible name; undefined when the node has none. */
  name: string | undefined = undefined;
  /** The current value (a text field's text, a slider's number); never set on secure nodes. */
  value: string | undefined = undefined;
  /**
   * More about the node than its name says: an invalid field's message, a hint. Undefined
   * when it has none.
   */
  description: string | undefined = undefined;
  /** A bit mask of the node's states: bit i set when the i-th of {@link STATES} applies. */
  states = 0;
  /** The parent node; null for the root and for a detached node. */
  parent: SemanticNode | null = null;
  /** The child nodes, in reading order. */
  children: SemanticNode[] = NO_CHILDREN;
  /** False once the node has been removed from its tree. */
  attached = true;
  // The bounds, kept as four small integers rather than an object: a node costs 32 bytes
  // less, and the garbage collector has one object fewer a node to trace.
  #x = 0;
  #y = 0;
  #width = 0;
  #height = 0;

  /** Creates a detached node; trees make theirs with {@link SemanticTree.createNode}. */
  constructor(id: number, role: Role) {
    this.id = id;
    this.role = role;
  }

  /**
   * Position relative to the parent node's top-left corner, and size, in cells. Each read
   * gives a new object; assigning copies the four numbers.
   */
  get bounds(): Bounds {
    return { x: this.#x, y: this.#y, width: this.#width, height: this.#height };
  }

  set bounds(bounds: Bounds) {
    this.setBounds(bounds.x, bounds.y, bounds.width, bounds.height);
  }

  /** Sets the bounds from four numbers (see {@link SemanticNode.bounds}). */
  setBounds(x: number, y: number, width: number, height: number): void {
    this.#x = x;
    this.#y = y;
    this.#width = width;
    this.#height = height;
  }

  /** True when the node's bounds are `bounds` (equal numbers, not the same object). */
  hasBounds(bounds: Bounds): boolean {
    return this.isAt(bounds.x, bounds.y, bounds.width, bounds.height);
  }

  /** True when the node's bounds are these four numbers. */
  isAt(x: number, y: number, width: number, height: number): boolean {
    return this.#x === x && this.#y === y && this.#width === width && this.#height === height;
  }

  /** True when the node has `state`. */
  has(state: State): boolean {
    return (this.states & STATE_BIT[state]) !== 0;
  }
}

/** A node as plain JSON-ready data: what travels to the agent thread and into `ui://tree.json`. */
export interface NodeData {
  /** The node's id: unique for the life of the app. */
  id: number;
  /** What kind of widget the node stands for. */
  role: Role;
  /** The accessible name; absent when the node has none. */
  name?: string;
  /** The current value; absent when the node has none, and always on secure nodes. */
  value?: string;
  /** The description (an invalid field's message); absent when the node has none. */
  description?: string;
  /** The states the node has, in tree-text order. */
  states: State[];
  /** Position relative to the parent node's top-left corner, and size, in cells. */
  bounds: Bounds;
  /** The children's ids, in reading order. */
  children: number[];
}

/** The states of a node data that has none. */
const NO_STATES: State[] = Object.freeze([]) as unknown as State[];
/** The children of a node data that has none. */
const NO_IDS: number[] = Object.freeze([]) as unknown as number[];

/** Copies a node into plain data. A secure node's value is never copied. */
export function nodeData(node: SemanticNode): NodeData {
  // Most nodes have no state and no child: they share one empty array of each, frozen.
  const states = node.states === 0 ? NO_STATES : statesOf(node.states);
  const children = node.children.length === 0 ? NO_IDS : node.children.map((child) => child.id);
  const { id, role, name } = node;
  const bounds = node.bounds;
  // Most nodes have a name: an object made with it holds it in place, where one added later
  // would need a store of its own. The keys keep their order either way.
  const data: NodeData = name !== undefined
    ? { id, role, states, bounds, children, name }
    : { id, role, states, bounds, children };
  if (node.value !== undefined && !node.has("secure")) data.value = node.value;
  if (node.description !== undefined) data.description = node.description;
  return data;
}
