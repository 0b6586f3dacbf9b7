/**
 * A Dockerfile reader for static checks: instructions grouped by build stage, with line
 * continuations joined, comment lines dropped, exec-form (JSON) arguments decoded, `KEY=value`
 * pairs of ENV/ARG/LABEL split, and `${VAR}` / `$VAR` substituted from global ARG defaults where asked.
 * It follows the Dockerfile reference's rules for these forms; heredocs are not supported.
 */

export interface Instruction {
  /** Upper-case keyword: FROM, RUN, COPY, ... */
  readonly keyword: string;
  /** Arguments after the keyword and its `--flag=value` options (for COPY/ADD/FROM/RUN). */
  readonly args: string;
  readonly flags: Readonly<Record<string, string>>;
  /** 1-based line of the keyword. */
  readonly line: number;
}

export interface Stage {
  /** Image reference after FROM (unsubstituted). */
  readonly from: string;
  /** `AS name`, when given. */
  readonly name?: string;
  readonly instructions: readonly Instruction[];
}

export interface Dockerfile {
  /** ARG instructions before the first FROM. */
  readonly globalArgs: readonly Instruction[];
  readonly stages: readonly Stage[];
}

const FLAGGED = new Set(['FROM', 'COPY', 'ADD', 'RUN']);

/** Parses a Dockerfile's text. Throws on an instruction before FROM other than ARG. */
export function parseDockerfile(text: string): Dockerfile {
  const globalArgs: Instruction[] = [];
  const stages: { from: string; name?: string; instructions: Instruction[] }[] = [];
  for (const ins of logicalLines(text)) {
    if (ins.keyword === 'FROM') {
      const parts = ins.args.split(/\s+/);
      const asAt = parts.findIndex((p) => p.toUpperCase() === 'AS');
      const stage: { from: string; name?: string; instructions: Instruction[] } = { from: parts[0] ?? '', instructions: [] };
      if (asAt > 0 && parts[asAt + 1] !== undefined) stage.name = parts[asAt + 1];
      stages.push(stage);
      continue;
    }
    const current = stages[stages.length - 1];
    if (current === undefined) {
      if (ins.keyword !== 'ARG') throw new Error(`line ${ins.line}: ${ins.keyword} before the first FROM`);
      globalArgs.push(ins);
    } else {
      current.instructions.push(ins);
    }
  }
  return { globalArgs, stages };
}

function* logicalLines(text: string): Generator<Instruction> {
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length) {
    const raw = lines[i] ?? '';
    const start = i + 1;
    i++;
    if (/^\s*(#.*)?$/.test(raw)) continue;
    let joined = raw.trimEnd();
    while (joined.endsWith('\\') && i < lines.length) {
      joined = joined.slice(0, -1);
      const next = lines[i] ?? '';
      i++;
      if (/^\s*#/.test(next)) continue; // comment lines inside a continuation are removed
      joined += ' ' + next.trim();
    }
    const m = /^\s*([A-Za-z]+)\s*(.*)$/.exec(joined);
    if (m === null) throw new Error(`line ${start}: cannot parse ${JSON.stringify(raw)}`);
    const keyword = (m[1] ?? '').toUpperCase();
    let args = (m[2] ?? '').trim();
    const flags: Record<string, string> = {};
    if (FLAGGED.has(keyword)) {
      let f: RegExpExecArray | null;
      while ((f = /^--([a-z-]+)(?:=(\S*))?\s+/.exec(args)) !== null) {
        // A repeated flag (RUN --mount=… --mount=…) keeps every value, space-separated.
        const name = f[1] ?? '';
        flags[name] = flags[name] === undefined ? f[2] ?? '' : `${flags[name]} ${f[2] ?? ''}`;
        args = args.slice(f[0].length);
      }
    }
    yield { keyword, args, flags, line: start };
  }
}

/** Exec-form arguments (`["a", "b"]`) or undefined for the shell form. */
export function execForm(args: string): string[] | undefined {
  if (!args.startsWith('[')) return undefined;
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === 'string')) throw new Error(`not a JSON string array: ${args}`);
  return parsed as string[];
}

/** `KEY=value` pairs of ENV/ARG/LABEL (values may be double-quoted); `ARG NAME` alone gives an undefined value. */
export function keyValues(args: string): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  const re = /([A-Za-z_][A-Za-z0-9_.-]*)(?:=("(?:[^"\\]|\\.)*"|\S*))?/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(args)) !== null) {
    const value = m[2];
    out.set(m[1] ?? '', value === undefined ? undefined : value.startsWith('"') ? (JSON.parse(value) as string) : value);
  }
  return out;
}

/** Replaces `${NAME}` and `$NAME` with values from `vars` (unknown names stay as written). */
export function substitute(text: string, vars: ReadonlyMap<string, string | undefined>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, a: string | undefined, b: string | undefined) => {
    const v = vars.get(a ?? b ?? '');
    return v === undefined ? whole : v;
  });
}

/** All instructions of a stage with the given keyword. */
export function instructions(stage: Stage, keyword: string): Instruction[] {
  return stage.instructions.filter((i) => i.keyword === keyword);
}
