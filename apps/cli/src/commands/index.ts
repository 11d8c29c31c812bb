/**
 * Every aref command, in the order `aref --help` lists them. Each module exports
 * `register(program, ctx)`; add a command by adding its file and one line here.
 */
import { register as analyze } from "./analyze.js";
import { register as cat } from "./cat.js";
import { register as fetch } from "./fetch.js";
import { register as gc } from "./gc.js";
import { register as list } from "./list.js";
import { register as migrate } from "./migrate.js";
import { register as peek } from "./peek.js";
import { register as resolve } from "./resolve.js";
import { register as rm } from "./rm.js";
import type { RegisterCommand } from "./shared.js";
import { register as stash } from "./stash.js";
import { register as stats } from "./stats.js";
import { register as verify } from "./verify.js";
import { register as tokens } from "./tokens.js";
import { register as budget } from "./budget.js";
import { register as hotState } from "./hot-state.js";
import { register as serve } from "./serve.js";
import { register as mcp } from "./mcp.js";

export const COMMANDS: RegisterCommand[] = [
  stash,
  fetch,
  cat,
  peek,
  list,
  rm,
  gc,
  verify,
  stats,
  migrate,
  analyze,
  resolve,
  tokens,
  budget,
  hotState,
  serve,
  mcp,
];
