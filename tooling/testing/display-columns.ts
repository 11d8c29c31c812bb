// The terminal columns a line takes, as the tests measure it (independent of the library the
// packages use): a grapheme with an emoji, or a CJK / Hangul / kana / fullwidth character, is two
// columns; any other grapheme (a ZWJ emoji sequence or a letter with combining marks too) is one.
const WIDE =
  /\p{Extended_Pictographic}|[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

export const graphemes = (text: string): string[] => Array.from(segmenter.segment(text), (g) => g.segment);

export const graphemeColumns = (grapheme: string): number => (WIDE.test(grapheme) ? 2 : 1);

export const displayColumns = (line: string): number => graphemes(line).reduce((n, g) => n + graphemeColumns(g), 0);

/** The widest line of `text`, in display columns. */
export const widestLine = (text: string): number => Math.max(...text.split("\n").map(displayColumns));

/** File names in CJK scripts and with emoji (two long ones differ only near the end). */
export const WIDE_NAMES = [
  "测试运行-代理日志-非常长的名字-示例-请求失败-第一部分-第零零零一集.jsonl",
  "测试运行-代理日志-非常长的名字-示例-请求失败-第二部分-第零零零一集.jsonl",
  "🚀-launch-🔥-run-👩‍💻-pairing-🎉-party-🧪-lab-🐛-bug-hunt-episode-0003.jsonl",
  "日本語のファイル名.jsonl",
  "한국어-에피소드-0005.jsonl",
  "mixed-名前-🎉-0006.jsonl",
  "plain-ascii-episode-0007.jsonl",
];
