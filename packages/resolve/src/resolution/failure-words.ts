/** Failure and success words: the message asks about a failed execution ("that error", "why did it crash"), or a successful one. */

/** Single words for a failure, which a record that failed matches when the session never writes them (score.ts). */
export const FAILURE_TERMS: ReadonlySet<string> = new Set([
  "error",
  "errors",
  "failure",
  "failures",
  "fail",
  "failed",
  "crash",
  "crashed",
  "exception",
]);

/** The message is about a failed execution; "ok now or still broken?" asks the outcome and describes none. */
export function failureAsked(lower: string): boolean {
  const failureWords =
    /\b(that|the|this|an?|any|last|latest|first|earliest|previous|second|third|other|newest|most recent)\s+(error|errors|failure|failures|crash|exception|traceback)\b(?!\s+(log|logs|handler|handlers|docs?|page|pages|file|files|message|code|codes|reference|rate|budget|class|type))/.test(
      lower,
    ) ||
    /\b(went red|turned red|gone red|went wrong|go wrong|goes wrong|broke|broken|fail|failed|failing|fails|couldn'?t|could not|can'?t|cannot|didn'?t work|did not work|wasn'?t able|errored|crash|crashed|crashes|crashing|blew up|blow up|blows up|died|timed out|timing out|times out|segfaulted|aborted|exploded|panicked|bombed|choked|rejected|refused|(?:did not|didn'?t|would not|wouldn'?t|will not|won'?t|wont|does not|doesn'?t) (?:accept|install|start|build|compile|connect|load|boot|mount|deploy|pass))\b/.test(
      lower,
    ) ||
    // "why did that time out?", "did the request time out": the verb written apart.
    /\b(?:did|does|do|would|will|could|might|to)\s+(?:(?:it|that|this|they|the\s+[\w.-]+)\s+)?time\s*out\b/.test(
      lower,
    ) ||
    // "which tests are red?", "the build is still red": a run of tests or a build shown red.
    /\b(?:tests?|specs?|builds?|checks?|pipelines?|ci|jobs?|suites?)\s+(?:(?:is|are|was|were|still|stays?|stayed)\s+)+red\b/.test(
      lower,
    ) ||
    /\bthe\s+[1-5]\d\d\b/.test(lower) ||
    /\b[1-5]\d\d'?d\b/.test(lower) ||
    /\berror\s*[?.!]*\s*$/.test(lower);
  // "ok now or still broken?": the outcome is the question, not a description of the execution.
  const outcomeAsked =
    /\bor\b/.test(lower) &&
    /\b(ok|okay|fine|green|pass|passed|passing|passes|works?|worked|working|succeed|succeeded|success|successful|fixed)\b/.test(
      lower,
    );
  return failureWords && !outcomeAsked;
}

/** "the last run that passed", "the run where everything worked", "the green build": the outcome was success. */
export function successAsked(lower: string, wantsError: boolean): boolean {
  return (
    !wantsError &&
    /\b(?:that|which|where|when|one)\s+(?:everything\s+|all\s+|it\s+|they\s+)?(?:(?:actually|finally|really|fully|properly)\s+)?(?:passed|succeeded|worked|went green|was green|were green|came back clean|was clean)\b|\b(?:green|passing|successful|succeeded|clean)\s+(?:run|runs|one|build|builds|test run|deploy|attempt)\b/.test(
      lower,
    )
  );
}
