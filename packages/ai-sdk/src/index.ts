export {
  AiSdkRefs,
  createAiSdkRefs,
  artifactsGetTool,
  type AiSdkRefsOptions,
  type PrepareStepInput,
  type StepBudgetReport,
} from "./refs.js";
