/** Every piece a stream yields (copied), and what it threw at the end, if anything. */
export async function collect(stream: AsyncIterable<Uint8Array>): Promise<{ yielded: Uint8Array[]; error: unknown }> {
  const yielded: Uint8Array[] = [];
  try {
    for await (const bytes of stream) yielded.push(Uint8Array.from(bytes));
  } catch (error) {
    return { yielded, error };
  }
  return { yielded, error: undefined };
}
