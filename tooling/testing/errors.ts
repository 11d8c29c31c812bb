/** The error `fn` throws (to check its code and message); fails when it throws nothing. */
export function errorOf(fn: () => unknown): Error & { code?: string } {
  try {
    fn();
  } catch (e) {
    return e as Error & { code?: string };
  }
  throw new Error("expected an error");
}
