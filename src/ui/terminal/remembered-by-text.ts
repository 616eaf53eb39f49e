/**
 * A pure function of a text, with a memory of the short texts it was given: Ink works out the same things about
 * the same labels and rows at every render (their width, their escape sequences), and those answers depend on the
 * text alone. Long texts (an answer as it streams) change at every render and are worked out each time.
 */

/** Texts longer than this are not remembered: they are seldom seen twice, and would hold memory. */
const LONGEST_REMEMBERED = 512;
/** The memory is emptied when it holds this many texts (a long session shows many more than a frame does). */
const MOST_REMEMBERED = 4096;

/** Answers are never undefined, so one lookup tells a remembered text (this runs per text node per render). */
export function rememberedByText<T extends string | number>(compute: (text: string) => T): (text: string) => T {
  const answers = new Map<string, T>();
  return (text) => {
    if (text.length > LONGEST_REMEMBERED) return compute(text);
    const known = answers.get(text);
    if (known !== undefined) return known;
    const answer = compute(text);
    if (answers.size >= MOST_REMEMBERED) answers.clear();
    answers.set(text, answer);
    return answer;
  };
}
