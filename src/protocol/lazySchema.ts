// A zod schema built on its first parse, not when its module loads. Every module-level schema
// is activation time for the extension, and most are first needed by a command or a
// message long after activation.
import type * as z from 'zod/mini';

export interface LazySchema<T extends z.ZodMiniType> {
  safeParse(data: unknown, params?: Parameters<T['safeParse']>[1]): ReturnType<T['safeParse']>;
}

/** What a lazy schema parses to (z.infer for a LazySchema). */
export type LazyInfer<L> = L extends LazySchema<infer T> ? z.infer<T> : never;

export function lazySchema<T extends z.ZodMiniType>(make: () => T): LazySchema<T> {
  let schema: T | undefined;
  return { safeParse: (data, params) => (schema ??= make()).safeParse(data, params) as ReturnType<T['safeParse']> };
}
