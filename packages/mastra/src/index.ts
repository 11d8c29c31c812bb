export {
  MastraRefs,
  createMastraRefs,
  type MastraRefsOptions,
  type MastraToolError,
  type MastraToolLike,
} from "./refs.js";
export { historyBudget, type HistoryBudget } from "./history-budget.js";
