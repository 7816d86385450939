import {
  OperationNodeTransformer, PrimitiveValueListNode, ValueNode,
  type CompiledQuery, type KyselyPlugin, type OperationNode, type QueryId, type SelectQueryBuilder,
} from 'kysely';
import { standInNameOf, standIns } from './compiled-once.ts';

// A list's page and count statements built and compiled once per shape, then filled with each request's
// values. Building and compiling them was 14 % of the server's busy time on 用户管理 page 1 (Kysely:
// immutable builders freeze every node they copy; the compiler walks the whole tree), for statements
// whose text only changes with the filters present, the sort and the page's form.
//
// The shape of a request is the compiled text of its filtered query (the module builds it per request:
// cheap) plus what listPage decides, and the list's column function: the same function object each time
// (a module's constant). A column function made anew on each call is never seen twice, so its list is
// built per request as before.
//
// A template knows, for each parameter of its statement, where the value comes from: the filtered query's
// parameter j (found by the identity of the value's node, which builders share, never copy), one of
// listPage's own values of the request (offset, limit, cursor), or a constant of the statement (a value
// of the column function). Under Vitest every statement filled from a template is also built afresh and
// compared, so the whole suite checks it (`CHECK_TEMPLATES`).

const SLOT = Symbol('listSlot');
/** Where a marked parameter was in the tree: the value node (or value list and index) and its value. */
type Slot = { node: OperationNode; index: number; value: unknown };
type Marked = { readonly [SLOT]: Slot };
const isMarked = (value: unknown): value is Marked => typeof value === 'object' && value !== null && SLOT in value;

/** Replaces every parameter of a query by a mark that names the node it came from (the compiler keeps the order). */
class MarkValues extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode, _queryId?: QueryId): ValueNode {
    return node.immediate ? node : ValueNode.create({ [SLOT]: { node, index: 0, value: node.value } } satisfies Marked);
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode, _queryId?: QueryId): PrimitiveValueListNode {
    return PrimitiveValueListNode.create(node.values.map((value, index) => ({ [SLOT]: { node, index, value } } satisfies Marked)));
  }
}
const markValues: KyselyPlugin = {
  transformQuery: ({ node, queryId }) => new MarkValues().transformNode(node, queryId),
  transformResult: async ({ result }) => result,
};

/** listPage's own values of a request: stand-ins while a template is built, the request's values when it is filled. */
export type OwnValues = { offset: unknown; limit: unknown; seekValue: unknown; seekKey: unknown };
const ownStandIns = standIns<OwnValues>();
const ownNameOf = (value: unknown) => standInNameOf(value) as keyof OwnValues | undefined;

type Source = { filtered: number } | { own: keyof OwnValues } | { constant: unknown };
type Template = { compiled: CompiledQuery; sources: Source[] };
type TemplateCounts = { made: number; refused: number; filled: number };

/** Whether every filled statement is also built afresh and compared (tests; `LIST_TEMPLATE_CHECK=1` elsewhere). */
export const CHECK_TEMPLATES = process.env.VITEST !== undefined || process.env.LIST_TEMPLATE_CHECK === '1';
/** The most shapes a list keeps (a company administrator's scope adds one per number of companies). */
const SHAPES_PER_LIST = 256;

/**
 * The template of `statement` (built from `filtered` with `ownStandIns`), or undefined when one of the
 * filtered query's parameters is not found in it by its node (a builder that copied a value: such a
 * statement is built per request).
 */
function templateOf(filtered: SelectQueryBuilder<any, any, any>, statement: SelectQueryBuilder<any, any, any>): Template | undefined {
  const positions = new Map<OperationNode, number[]>();
  filtered.withPlugin(markValues).compile().parameters.forEach((parameter, at) => {
    const { node, index } = (parameter as Marked)[SLOT];
    const list = positions.get(node) ?? [];
    list[index] = at;
    positions.set(node, list);
  });
  const compiled = statement.withPlugin(markValues).compile();
  const used = new Set<number>();
  const sources = compiled.parameters.map((parameter): Source => {
    if (!isMarked(parameter)) return { constant: parameter };
    const { node, index, value } = parameter[SLOT];
    const at = positions.get(node)?.[index];
    if (at !== undefined) {
      used.add(at);
      return { filtered: at };
    }
    const own = ownNameOf(value);
    return own ? { own } : { constant: value };
  });
  const filteredCount = [...positions.values()].reduce((n, list) => n + list.length, 0);
  if (used.size !== filteredCount) return undefined;
  return { compiled: { ...compiled, parameters: [] }, sources };
}

function fill(template: Template, filteredParameters: readonly unknown[], own: OwnValues): CompiledQuery {
  const parameters = template.sources.map((source) => ('filtered' in source ? filteredParameters[source.filtered] : 'own' in source ? own[source.own] : source.constant));
  return { ...template.compiled, parameters };
}

/**
 * The statements of one list (one column function): `statement(key, build, own)` answers the compiled
 * statement of the request, from the template of its shape once there is one. `key` must hold everything
 * of listPage's that shapes the statement besides the filtered query's text (added here); `build` builds
 * the statement with the own values it is given.
 */
export class ListShapes {
  private readonly filtered: SelectQueryBuilder<any, any, any>;
  private readonly compiledFiltered: CompiledQuery;
  private readonly templates: Map<string, Template | null>;
  private readonly counts: TemplateCounts;

  constructor(filtered: SelectQueryBuilder<any, any, any>, templates: Map<string, Template | null>, counts: TemplateCounts) {
    this.filtered = filtered;
    this.compiledFiltered = filtered.compile();
    this.templates = templates;
    this.counts = counts;
  }

  statement(key: string, build: (own: OwnValues) => SelectQueryBuilder<any, any, any>, own: OwnValues): CompiledQuery {
    const fullKey = `${key}\u0000${this.compiledFiltered.sql}`;
    let template = this.templates.get(fullKey);
    if (template === undefined) {
      template = templateOf(this.filtered, build(ownStandIns)) ?? null;
      this.counts[template ? 'made' : 'refused'] += 1;
      if (this.templates.size >= SHAPES_PER_LIST) this.templates.delete(this.templates.keys().next().value!);
      this.templates.set(fullKey, template);
    }
    if (!template) return build(own).compile();
    this.counts.filled += 1;
    const filled = fill(template, this.compiledFiltered.parameters, own);
    if (CHECK_TEMPLATES) {
      const fresh = build(own).compile();
      if (fresh.sql !== filled.sql || fresh.parameters.length !== filled.parameters.length || fresh.parameters.some((p, at) => !Object.is(p, filled.parameters[at]))) {
        throw new Error(`list template differs from the statement built afresh:\n${fresh.sql}\n${JSON.stringify(fresh.parameters)}\n${JSON.stringify(filled.parameters)}`);
      }
    }
    return filled;
  }
}

/**
 * The shapes of each list, by its column function: a function seen once is only noted; from its second
 * request on its statements are templated. Per database (ListMemory), per server instance.
 */
export class ListShapeMemory {
  private readonly byColumns = new WeakMap<object, Map<string, Template | null> | 'seen'>();
  /** Templates made, shapes refused (built per request), statements filled from a template: for tests and benches. */
  readonly counts: TemplateCounts = { made: 0, refused: 0, filled: 0 };

  /** The shapes of the list whose columns `selectColumns` picks, for this request's `filtered`; undefined the first time the function is seen. */
  shapesOf(selectColumns: object, filtered: SelectQueryBuilder<any, any, any>): ListShapes | undefined {
    const known = this.byColumns.get(selectColumns);
    if (known === undefined) {
      this.byColumns.set(selectColumns, 'seen');
      return undefined;
    }
    if (known === 'seen') {
      const shapes = new Map<string, Template | null>();
      this.byColumns.set(selectColumns, shapes);
      return new ListShapes(filtered, shapes, this.counts);
    }
    return new ListShapes(filtered, known, this.counts);
  }
}
