import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

/** The stages of a Dockerfile: instructions with continuation lines joined and comments dropped. */
export function dockerfileStages(path: string): Stage[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const joined: string[] = [];
  let current = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (!current && (line === '' || line.startsWith('#'))) continue;
    if (current && line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      current += line.slice(0, -1) + ' ';
      continue;
    }
    joined.push((current + line).replace(/\s+/g, ' ').trim());
    current = '';
  }
  const stages: Stage[] = [];
  for (const line of joined) {
    const [keyword, ...rest] = line.split(' ');
    const args = rest.join(' ');
    if (keyword.toUpperCase() === 'FROM') {
      const m = /^(\S+)(?: AS (\S+))?$/i.exec(args);
      stages.push({ from: m![1], name: m![2] ?? String(stages.length), instructions: [] });
    } else if (stages.length) {
      stages[stages.length - 1].instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

export const DOCKERFILE = join(__dirname, '../../docker/Dockerfile');

/** RUN instructions of a stage, without BuildKit flags (--mount=...), as shell commands. */
export function runCommands(stage: Stage): string[] {
  return stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args.replace(/^(?:--\S+\s+)+/, ''));
}
