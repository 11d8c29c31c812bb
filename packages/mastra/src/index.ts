export { MastraRefs, createMastraRefs, type MastraRefsOptions, type MastraToolLike } from "./refs.js";
export { historyBudget, type HistoryBudget } from "./history-budget.js";
