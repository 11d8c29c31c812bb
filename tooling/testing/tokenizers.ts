/**
 * A tokenizer (the shape of @artifact-refs/budget's Tokenizer) whose count always throws
 * `new Error(message)`: for the tests that check a counting failure fails closed.
 */
export function throwingTokenizer(message: string): {
  readonly name: string;
  readonly encoding: string;
  count(text: string): number;
} {
  return {
    name: "broken",
    encoding: "none",
    count: () => {
      throw new Error(message);
    },
  };
}
