// A dialect's requests to its worker, shared by every dialect: a request whose JSON-RPC error
// becomes the dialect's refusal in its own words, an answer checked by its schema, and a verb
// the worker does not know said as Unsupported (what the person can do about it differs).
import type { MessageConnection } from 'vscode-jsonrpc';
import { z } from 'zod';
import { WorkerRefusal } from './dialect';
import { Unsupported } from './sessionVerbs';

/** What vscode-jsonrpc rejects with when the worker answered an error. */
export interface AnsweredError {
  message?: string;
  code: number;
  data?: unknown;
}

/**
 * A request to the worker. An error the worker answered (it has a JSON-RPC code) becomes what
 * `refusal` makes of it; anything else (the connection closed, a timeout) passes as an Error.
 */
export async function request(connection: MessageConnection, method: string, params: object, refusal: (e: AnsweredError) => Error): Promise<unknown> {
  try {
    return await connection.sendRequest(method, params);
  } catch (error) {
    const e = error as Partial<AnsweredError> | undefined;
    if (typeof e?.code === 'number') throw refusal(e as AnsweredError);
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
