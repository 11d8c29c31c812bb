export { LangChainRefs, createLangChainRefs, type LangChainRefsOptions, type MessageBudget } from "./refs.js";
