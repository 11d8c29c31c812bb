export { AgentsRefs, createAgentsRefs, type AgentsRefsOptions, type InputBudget } from "./refs.js";
