import type { Decimal, DecimalInput } from "./decimal.js";
import type { paths } from "./generated/openapi.js";

// Types that read an operation's request and answer out of the generated
// `paths`, so that every call the SDK makes is checked against the OpenAPI
// document by the compiler: a path, a method, a parameter or a body field the
// document does not have does not compile.

/** Method is an HTTP method the API uses, as the generated types spell it. */
export type Method = "get" | "post" | "put" | "delete";

/** PathOf is every path of the document that has method M. */
export type PathOf<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never;
}[keyof paths];

/** Operation is the generated description of method M on path P. */
export type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/** PathParams is an operation's path parameters (`{wid}`, `{soNo}`), or never. */
export type PathParams<O> = O extends { parameters: { path: infer T } } ? T : never;

/** QueryParams is an operation's query parameters, or never. */
export type QueryParams<O> = O extends { parameters: { query?: infer T } } ? Exclude<T, undefined> : never;

/** JsonBody is an operation's JSON request body, or never. */
export type JsonBody<O> = O extends { requestBody?: infer R }
  ? NonNullable<R> extends { content: { "application/json": infer B } }
    ? B
    : never
  : never;

/** Answer is what an operation answers with JSON on success (200 or 201). */
export type Answer<O> = O extends { responses: infer R }
  ? { [S in keyof R & (200 | 201)]: R[S] extends { content: { "application/json": infer B } } ? B : never }[keyof R &
      (200 | 201)]
  : never;

/**
 * Input is the type a request takes where answers have T: a Decimal field
 * takes any DecimalInput (a Decimal, a decimal string or a number), and
 * date-times, typed as strings, stay strings.
 */
export type Input<T> = T extends Decimal
  ? DecimalInput
  : T extends readonly (infer E)[]
    ? Input<E>[]
    : T extends object
      ? { [K in keyof T]: Input<T[K]> }
      : T;

/** The query parameters that are date-times: they also take a Date. */
type DateParam = "modifiedSince" | "startDate" | "endDate";

/** Query is an operation's query parameters as the SDK takes them. */
export type Query<O> = { [K in keyof QueryParams<O>]?: K extends DateParam ? QueryParams<O>[K] | Date : QueryParams<O>[K] };

/** RequestArgs is what a call of an operation gives beside its path. */
export type RequestArgs<O> = ([PathParams<O>] extends [never] ? { params?: never } : { params: PathParams<O> }) &
  ([QueryParams<O>] extends [never] ? { query?: never } : { query?: Query<O> }) &
  ([JsonBody<O>] extends [never]
    ? { body?: never }
    : O extends { requestBody: object }
      ? { body: Input<JsonBody<O>> }
      : { body?: Input<JsonBody<O>> });
