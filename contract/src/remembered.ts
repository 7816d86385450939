/**
 * `compute` with its answers for the last `kept` keys remembered (the memory starts over when full): for
 * a pure function called on every list row with few distinct inputs (a day, a User-Agent).
 */
export function remembered<K, V>(kept: number, compute: (key: K) => V): (key: K) => V {
  const answers = new Map<K, V>();
  return (key) => {
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = compute(key);
      if (answers.size >= kept) answers.clear();
      answers.set(key, answer);
    }
    return answer;
  };
}
