#!/usr/bin/env node
import { runMcpCommand } from "./main.js";

process.exitCode = await runMcpCommand(process.argv.slice(2));
