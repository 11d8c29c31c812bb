import { MemoryDriver, type PutIfAbsentOptions } from "@artifact-refs/store";

/** A MemoryDriver that logs writes and refreshes (in order), and can hold reference writes for a while. */
export class LoggingDriver extends MemoryDriver {
  log: string[] = [];
  refDelayMs = 0;

  override async putIfAbsent(key: string, data: Uint8Array, options?: PutIfAbsentOptions) {
    await this.#hold(key);
    const result = await super.putIfAbsent(key, data, options);
    this.log.push(`putIfAbsent ${key.split("/")[0]} ${result.created ? "created" : "existed"}`);
    return result;
  }

  override async touch(key: string) {
    this.log.push(`touch ${key.split("/")[0]}`);
    return super.touch(key);
  }

  override async put(key: string, data: Uint8Array) {
    await this.#hold(key);
    this.log.push(`put ${key.split("/")[0]}`);
    return super.put(key, data);
  }

  async #hold(key: string) {
    if (key.startsWith("refs/") && this.refDelayMs > 0) await new Promise((r) => setTimeout(r, this.refDelayMs));
  }
}
