/** `true` when A and B are the same type: a zod schema and the interface it mirrors stay equal at compile time. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
