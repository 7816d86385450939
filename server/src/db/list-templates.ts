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
// A statement is built from one or two source queries: the request's filtered query, or with a contains
// search the filtered query as its page and as its count read it (list/paging.ts ANDs each search the
// module passed in `options.searches`, in the form list/search-plan.ts `planSearches` chose). The shape of a request is the compiled text of its sources (the module builds the
// filtered query per request: cheap) plus what listPage decides, and the list's column function: the same
// function object each time (a module's constant). A column function made anew on each call is never seen
// twice, so its list is built per request as before.
//
// A template knows, for each parameter of its statement, where the value comes from: source i's parameter
// j (found by the identity of the value's node, which builders and transformers share, never copy), one of
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

/** listPage's own values of a request (and the FTS5 question of a streamed count): stand-ins while a template is built, the request's values when it is filled. */
export type OwnValues = { offset: unknown; seekValue: unknown; seekKey: unknown; phrase: unknown };
const ownStandIns = standIns<OwnValues>();
const ownNameOf = (value: unknown) => standInNameOf(value) as keyof OwnValues | undefined;

type Source = { source: number; at: number } | { own: keyof OwnValues } | { constant: unknown };
/** A query a statement is built from: the request's filters, as the page or the count reads them. */
type SourceQuery = SelectQueryBuilder<any, any, any>;
type Template = { compiled: CompiledQuery; sources: Source[] };
type TemplateCounts = { made: number; refused: number; filled: number };

/** Whether every filled statement is also built afresh and compared (tests; `LIST_TEMPLATE_CHECK=1` elsewhere). */
export const CHECK_TEMPLATES = process.env.VITEST !== undefined || process.env.LIST_TEMPLATE_CHECK === '1';
/** The most shapes a list keeps (a company administrator's scope adds one per number of companies). */
const SHAPES_PER_LIST = 256;

/**
 * The template of `statement` (built from `sources` with `ownStandIns`), or undefined when one of the
 * sources' parameters is not found in it by its node (a builder that copied a value: such a statement is
 * built per request). A node the sources share is taken from the first that holds it.
 */
function templateOf(sources: readonly SourceQuery[], statement: SelectQueryBuilder<any, any, any>): Template | undefined {
  type Position = { source: number; at: number };
  const positions = new Map<OperationNode, Position[]>();
  let slots = 0;
  sources.forEach((source, s) => source.withPlugin(markValues).compile().parameters.forEach((parameter, at) => {
    const { node, index } = (parameter as Marked)[SLOT];
    const list = positions.get(node) ?? [];
    if (!list[index]) {
      list[index] = { source: s, at };
      slots += 1;
    }
    positions.set(node, list);
  }));
  const compiled = statement.withPlugin(markValues).compile();
  const used = new Set<Position>();
  const sourcesOf = compiled.parameters.map((parameter): Source => {
    if (!isMarked(parameter)) return { constant: parameter };
    const { node, index, value } = parameter[SLOT];
    const position = positions.get(node)?.[index];
    if (position) {
      used.add(position);
      return position;
    }
    const own = ownNameOf(value);
    return own ? { own } : { constant: value };
  });
  if (used.size !== slots) return undefined;
  return { compiled: { ...compiled, parameters: [] }, sources: sourcesOf };
}

function fill(template: Template, sourceParameters: readonly (readonly unknown[])[], own: OwnValues): CompiledQuery {
  const parameters = template.sources.map((from) => ('at' in from ? sourceParameters[from.source]![from.at] : 'own' in from ? own[from.own] : from.constant));
  return { ...template.compiled, parameters };
}

/**
 * The statements of one list (one column function) for one request: `statement(key, sources, build, own)`
 * answers the compiled statement, from the template of its shape once there is one. `key` must hold
 * everything of listPage's that shapes the statement besides its sources' text (added here); `sources`
 * are the queries the statement is built from; `build` builds it with the own values it is given.
 */
export class ListShapes {
  private readonly templates: Map<string, Template | null>;
  private readonly counts: TemplateCounts;
  /** The sources compiled for this request (each once, whatever statements read it). */
  private readonly compiledSources = new Map<SourceQuery, CompiledQuery>();

  constructor(templates: Map<string, Template | null>, counts: TemplateCounts) {
    this.templates = templates;
    this.counts = counts;
  }

  private compiledOf(source: SourceQuery): CompiledQuery {
    let compiled = this.compiledSources.get(source);
    if (!compiled) this.compiledSources.set(source, (compiled = source.compile()));
    return compiled;
  }

  statement(key: string, sources: readonly SourceQuery[], build: (own: OwnValues) => SelectQueryBuilder<any, any, any>, own: OwnValues): CompiledQuery {
    const compiled = sources.map((source) => this.compiledOf(source));
    const fullKey = `${key}\u0000${compiled.map((c) => c.sql).join('\u0000')}`;
    let template = this.templates.get(fullKey);
    if (template === undefined) {
      template = templateOf(sources, build(ownStandIns)) ?? null;
      this.counts[template ? 'made' : 'refused'] += 1;
      if (this.templates.size >= SHAPES_PER_LIST) this.templates.delete(this.templates.keys().next().value!);
      this.templates.set(fullKey, template);
    }
    if (!template) return build(own).compile();
    this.counts.filled += 1;
    const filled = fill(template, compiled.map((c) => c.parameters), own);
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

  /** The shapes of the list whose columns `selectColumns` picks, for this request; undefined the first time the function is seen. */
  shapesOf(selectColumns: object): ListShapes | undefined {
    const known = this.byColumns.get(selectColumns);
    if (known === undefined) {
      this.byColumns.set(selectColumns, 'seen');
      return undefined;
    }
    if (known === 'seen') {
      const shapes = new Map<string, Template | null>();
      this.byColumns.set(selectColumns, shapes);
      return new ListShapes(shapes, this.counts);
    }
    return new ListShapes(known, this.counts);
  }
}
