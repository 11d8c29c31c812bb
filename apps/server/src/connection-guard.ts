import type { Server } from "node:http";
import type { Socket } from "node:net";

/**
 * Caps the connections that have not yet made an authenticated request: a flood of idle or
 * slow sockets without a token cannot hold more than `max` of them (over the cap the oldest is
 * closed, so a new client still gets in); a socket leaves the count when one of its requests
 * authenticates, or when it closes.
 */
export class ConnectionGuard {
  readonly #pending = new Set<Socket>();
  readonly #trusted = new WeakSet<Socket>();
  /** Connections closed because the cap was reached (for tests and metrics). */
  refused = 0;

  constructor(readonly max: number) {}

  attach(server: Server): void {
    server.on("connection", (socket: Socket) => {
      if (this.#pending.size >= this.max) {
        // Evict the oldest connection that never authenticated (not the newcomer): a flood cannot lock real clients out.
        const oldest = this.#pending.values().next().value as Socket;
        this.#pending.delete(oldest);
        this.refused++;
        oldest.destroy();
      }
      this.#pending.add(socket);
      socket.once("close", () => this.#pending.delete(socket));
    });
  }

  /** Marks the socket of an authenticated request as trusted (no longer counted). */
  trust(socket: Socket | undefined): void {
    if (socket === undefined || this.#trusted.has(socket)) return;
    this.#trusted.add(socket);
    this.#pending.delete(socket);
  }

  /** Connections currently counted against the cap. */
  get pending(): number {
    return this.#pending.size;
  }
}
