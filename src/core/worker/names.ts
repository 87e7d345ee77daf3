// A worker's display name, given once when it starts and never changed: every view shows this
// name and nothing else, so it must tell the worker apart from every other worker of the window
// and from every past session in the history ("Demo worker", "Demo worker #2", …).

/** "Demo worker #3" → ["Demo worker", 3]; "Demo worker" → ["Demo worker", 1]. */
function family(name: string): [string, number] {
  const m = /^(.*\S) #(\d+)$/.exec(name);
  return m ? [m[1], Number(m[2])] : [name, 1];
}

/**
 * The name a new worker asking for `wanted` gets, when `taken` are the names already given: the
 * name itself while nobody has it, else the next number of its family after the highest one
 * given, so a number is never handed to a second worker while the first is remembered.
 */
export function uniqueWorkerName(wanted: string, taken: ReadonlySet<string>): string {
  if (!taken.has(wanted)) return wanted;
  const [base] = family(wanted);
  let highest = 1;
  for (const name of taken) {
    const [b, n] = family(name);
    if (b === base && n > highest) highest = n;
  }
  return `${base} #${highest + 1}`;
}
