/** Follow-ups read from the message ("the other one", "the one before that", "both of them"). */
import type { FollowUp } from "./query-types.js";

export function parseFollowUp(lower: string): FollowUp | undefined {
  if (
    /\b(both of (them|those|these)|all of (them|those|these)|both (ones|results)|the two of them|each of them)\b|^\s*(and\s+)?both\s*[?.!]*\s*$/.test(
      lower,
    )
  )
    return "both";
  if (/\b(the other (one|ones|file|result|run|page)?|the other\s*[?.!]*$|another one|the rest)\b/.test(lower))
    return "other";
  if (
    /\b(the one|the (file|run|page|result|query|call|search|command)|one|the thing) (just |right )?before (that|it|this|those)( one)?\b|\bbefore (that|it) one\b/.test(
      lower,
    )
  )
    return "before";
  if (
    /\b(the one|the (file|run|page|result|query|call|search|command)|one|the thing) (just |right )?after (that|it|this|those)( one)?\b|\bafter (that|it) one\b|\bthe next one\b/.test(
      lower,
    )
  )
    return "after";
  if (
    /^\s*(and\s+|so\s+|ok\s+|okay\s+)?(what about|how about|show|open|summari[sz]e|explain|more on|more about|tell me more about|go on with|expand on)?\s*(it|that|that one|this one|the same one|same one)(\s+again)?\s*[?.!]*\s*$/.test(
      lower,
    )
  )
    return "same";
  return undefined;
}
