// LOG_PRETTY=1: turns a service's JSON (pino) log line into a short human one:
//   HH:MM:SS LEVEL service       message  req=<requestId> key=value …
// with the error stack (if any) on the following lines. Lines that are not JSON get the
// service name in front and are otherwise left alone.

const LEVELS = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const SKIP = new Set(['time', 'level', 'service', 'msg', 'message', 'requestId', 'reqId', 'pid', 'hostname', 'v', 'err', 'error', 'trace']);
const NAME_WIDTH = 13; // "notifications"

export function createPrettyFormatter({ color = false } = {}) {
  const paint = (code, s) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const levelColor = { trace: '90', debug: '34', info: '32', warn: '33', error: '31', fatal: '35' };

  return function format(line, name) {
    const record = parse(line);
    if (!record) return `${' '.repeat(14)} ${paint('36', name.padEnd(NAME_WIDTH))} ${line}`;
    const level = typeof record.level === 'number' ? (LEVELS[record.level] ?? String(record.level)) : String(record.level ?? 'info');
    const service = String(record.service ?? name);
    const msg = record.msg ?? record.message ?? '';
    const parts = [
      clock(record.time),
      paint(levelColor[level] ?? '0', level.toUpperCase().padEnd(5)),
      paint('36', service.padEnd(NAME_WIDTH)),
      typeof msg === 'string' ? msg : JSON.stringify(msg),
    ];
    const requestId = record.requestId ?? record.reqId;
    if (requestId) parts.push(paint('2', `req=${requestId}`));
    for (const [key, value] of Object.entries(record)) {
      if (SKIP.has(key) || value === undefined || value === null) continue;
      parts.push(paint('2', `${key}=${short(value)}`));
    }
    const err = record.err ?? record.error;
    if (err && typeof err === 'object' && !err.stack && err.message) parts.push(paint('2', `err=${short(err.message)}`));
    let out = parts.join(' ');
    const stack = (err && typeof err === 'object' && err.stack) || (typeof record.trace === 'string' && record.trace) || (typeof err === 'string' && err);
    if (stack) out += '\n' + indent(String(stack));
    return out;
  };
}

function parse(line) {
  if (line[0] !== '{') return null;
  try {
    const value = JSON.parse(line);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

function clock(time) {
  const d = time === undefined ? new Date() : new Date(time);
  const t = Number.isNaN(d.getTime()) ? new Date() : d;
  return [t.getHours(), t.getMinutes(), t.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

function short(value) {
  let s = typeof value === 'string' ? (/[\s"]/.test(value) || value === '' ? JSON.stringify(value) : value) : JSON.stringify(value);
  if (s.length > 200) s = s.slice(0, 197) + '...';
  return s;
}

function indent(text) {
  return text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}
