// A dialect's requests to its worker, shared by every dialect: a table of the worker's methods
// (each method's params and the schema its answer is read by), a request whose JSON-RPC error
// becomes the dialect's refusal in its own words, and a verb the worker does not know said as
// Unsupported (what the person can do about it differs). A dialect names its table and its
// words; the sending, the reading and the refusals are these.
import { ConnectionError, type MessageConnection } from 'vscode-jsonrpc/node';
import { z } from 'zod';
import { WorkerRefusal } from './dialect';
import { Unsupported } from './sessionVerbs';
import { AnswerDropped } from './droppedAnswer';
import { isHostAnswer } from './answerShape';

/** What vscode-jsonrpc rejects with when the worker answered an error. */
export interface AnsweredError {
  message?: string;
  code: number;
  data?: unknown;
}

/** One method of a worker: what the host sends (a type only: the host builds it) and how its answer is read. */
export interface WireMethod<P extends object, R> {
  readonly result: z.ZodType<R>;
  /** Never set: carries the params' type. */
  readonly params?: P;
}

/** A method whose params are `P` and whose answer `result` reads. */
export const method = <P extends object = Record<string, never>>() => <R>(result: z.ZodType<R>): WireMethod<P, R> => ({ result });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table holds methods of any params and answer
export type MethodTable = Record<string, WireMethod<any, unknown>>;
type ParamsOf<T extends MethodTable, M extends keyof T> = NonNullable<T[M]['params']>;
type ResultOf<T extends MethodTable, M extends keyof T> = z.infer<T[M]['result']>;

/**
 * A request to the worker. An error the worker answered (it has a JSON-RPC code) becomes what
 * `refusal` makes of it; anything else (the connection closed, a timeout) passes as an Error. A
 * closed connection's error has a code too (vscode-jsonrpc's ConnectionError): it passes as it is,
 * never as the worker's refusal.
 */
export async function request(connection: MessageConnection, method: string, params: object, refusal: (e: AnsweredError) => Error): Promise<unknown> {
  try {
    return await connection.sendRequest(method, params);
  } catch (error) {
    const e = error as Partial<AnsweredError> | undefined;
    // The host's own answer for an answer too big to read or malformed: the worker refused nothing.
    if (e && isHostAnswer(e)) throw new AnswerDropped(e.message ?? 'the worker\'s answer was dropped');
    if (typeof e?.code === 'number' && !(error instanceof ConnectionError)) throw refusal(e as AnsweredError);
    throw error instanceof Error ? error : new Error(String(error));
  }
}

/** An answer read by its schema; `whose` names it in the error ("pi's get_state"). */
export function parseAnswer<T>(schema: z.ZodType<T>, value: unknown, whose: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${whose} answer is malformed: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** A session verb: a refusal that says the worker does not know it becomes Unsupported. */
export async function sessionRequest<T>(pending: Promise<T>, unknown: (refusal: WorkerRefusal) => boolean, unsupported: string): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof WorkerRefusal && unknown(error)) throw new Unsupported(unsupported);
    throw error;
  }
}

/** How one dialect says its requests: its name, its refusals, what it checks before sending. */
export interface DialectWords {
  /** The worker's name in errors: "pi", "τ". */
  whose: string;
  /** The dialect's refusal for an error the worker answered to `method`. */
  refusal(method: string, e: AnsweredError): Error;
  /** Throws when the request must not be sent (the worker said it would not take it). */
  admit?(connection: MessageConnection, method: string, params: object): void;
  /** Whether a refusal says the worker does not know the verb, and how that is said. */
  unknownVerb(refusal: WorkerRefusal): boolean;
  unsupported(method: string): string;
  /** Why a session verb is not offered, said before anything is sent; null: send it. */
  unsupportedBefore?(connection: MessageConnection, method: string): string | null;
  /** What an absent answer (null) is read as. */
  emptyAnswer?: unknown;
}

/** A dialect's calls of its table's methods: the answer read by the method's schema. */
export interface MethodCaller<T extends MethodTable> {
  /** The worker's raw answer, for the few that are read leniently. */
  send(connection: MessageConnection, method: keyof T & string, params?: object): Promise<unknown>;
  call<M extends keyof T & string>(connection: MessageConnection, method: M, params?: ParamsOf<T, M>): Promise<ResultOf<T, M>>;
  /** As `call`, for a session verb: one the worker does not have is Unsupported. */
  sessionCall<M extends keyof T & string>(connection: MessageConnection, method: M, params?: ParamsOf<T, M>): Promise<ResultOf<T, M>>;
}

export function methodCaller<T extends MethodTable>(table: T, words: DialectWords): MethodCaller<T> {
  const send = async (connection: MessageConnection, method: string, params: object = {}): Promise<unknown> => {
    words.admit?.(connection, method, params);
    const answer = await request(connection, method, params, (e) => words.refusal(method, e));
    return answer ?? words.emptyAnswer ?? answer;
  };
  const read = <M extends keyof T & string>(method: M, answer: unknown): ResultOf<T, M> => parseAnswer(table[method].result, answer, `${words.whose}'s ${method}`) as ResultOf<T, M>;
  return {
    send,
    call: async (connection, method, params) => read(method, await send(connection, method, params)),
    async sessionCall(connection, method, params) {
      const before = words.unsupportedBefore?.(connection, method);
      if (before) throw new Unsupported(before);
      const answer = await sessionRequest(send(connection, method, params), words.unknownVerb, words.unsupported(method));
      return read(method, answer);
    },
  };
}

/** "provider/id" from a worker's model object. */
export function modelName(m: { id?: string; provider?: string } | null | undefined): string | null {
  return m ? [m.provider, m.id].filter(Boolean).join('/') || null : null;
}
