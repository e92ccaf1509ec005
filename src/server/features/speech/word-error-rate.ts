/** Words as recognisers give them: lower case, no punctuation. */
export const normalisedWords = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

/** Word error rate: (substitutions + deletions + insertions) / reference words, by edit distance. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const ref = normalisedWords(reference);
  const hyp = normalisedWords(hypothesis);
  if (ref.length === 0) return hyp.length === 0 ? 0 : 1;
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const same = ref[i - 1] === hyp[j - 1] ? 0 : 1;
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + same);
    }
    previous = row;
  }
  return previous[hyp.length]! / ref.length;
}
