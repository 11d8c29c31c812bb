export { analyzeFiles, analyzeTexts, loadReplayMessages, type AnalyzeOptions } from "./analyze.js";
export {
  parseReplayTranscript,
  ANALYZE_FORMATS,
  type AnalyzeFormat,
  type ReplayMessage,
  type ParsedReplay,
} from "./formats.js";
export {
  replayTranscript,
  totalReports,
  replayHotState,
  objectiveOf,
  type ReplayOptions,
  type ReplayCall,
  type ReplayReport,
  type TurnReport,
  type SeriesFigures,
  type ReplayStash,
} from "./replay.js";
export {
  ANALYZE_SCHEMA,
  AnalyzeReportSchema,
  AnalyzeFileSchema,
  AnalyzeTurnSchema,
  buildAnalyzeReport,
  type AnalyzeReport,
  type AnalyzeFile,
  type AnalyzeTurn,
} from "./report.js";
export {
  ANALYZE_TEXT_WIDTH,
  PEER_SHORT_NAMES,
  formatAnalyzeTable,
  formatWorstFiles,
  formatTurnTable,
  formatSummary,
  formatEvidence,
  type AnalyzeTextOptions,
} from "./format.js";
export { renderAnalyzeSvg } from "./chart.js";
export { wrapText } from "./text-table.js";
export * from "./policies/index.js";
export { evidenceTerms, FirstSeen, type EvidenceCounts } from "./evidence.js";
