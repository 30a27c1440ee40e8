/** `$.a.b[0].c` → ['a', 'b', 0, 'c']; an error text for anything else. */
export function parseJsonPath(path: string): (string | number)[] | string {
  const p = path.trim();
  if (p === '' || p === '$') return [];
  if (!p.startsWith('$')) return `the JSON path "${path}" must start with $, as in $.data.items`;
  const steps: (string | number)[] = [];
  const re = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/y;
  let at = 1;
  while (at < p.length) {
    re.lastIndex = at;
    const m = re.exec(p);
    if (!m) return `the JSON path "${path}" cannot be read at "${p.slice(at)}"; use dots and [index], as in $.data.items or $.batches[0].rows`;
    steps.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? m[3] ?? m[4]));
    at = re.lastIndex;
  }
  return steps;
}
