import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROUTES } from '@ddm/contracts';
import { DOCKERFILE, Stage, dockerfileStages, runCommands } from './dockerfile';
import { ROOT, parseYaml } from './manifests';

/**
 * The image recipe, the laptop compose file and its nginx routes, read as files (no container
 * engine here): what each must hold, and that they agree with the route table and k8s/.
 * tools/deploy/image.e2e-spec.ts runs the recipe's build and install steps for real.
 */
const stages = dockerfileStages(DOCKERFILE);
const stage = (name: string) => stages.find((s) => s.name === name) as Stage;
const args = (s: Stage, keyword: string) => s.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);

describe('docker/Dockerfile', () => {
  it('is one multi-stage build: build, deps, runtime (last), all on the node 20 slim image', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'deps', 'runtime']);
    for (const s of stages) expect(s.from).toBe('node:${NODE_VERSION}-bookworm-slim');
    expect(readFileSync(DOCKERFILE, 'utf8')).toMatch(/^ARG NODE_VERSION=20$/m);
  });

  it('chooses the service by the SERVICE build argument and cuts its image folder with tools/build-service.mjs', () => {
    const build = stage('build');
    expect(args(build, 'ARG')).toContain('SERVICE');
    expect(runCommands(build)).toContain('node tools/build-service.mjs "$SERVICE" --out /out');
    expect(runCommands(build).some((c) => c.startsWith('test -n "$SERVICE"'))).toBe(true);
  });

  it('installs production dependencies only, from the generated package.json and lock file, without install scripts', () => {
    const deps = stage('deps');
    expect(args(deps, 'COPY')).toEqual(['--from=build /out/package.json /out/package-lock.json ./']);
    const [install, ...more] = runCommands(deps);
    expect(more).toEqual([]);
    expect(install).toMatch(/^npm ci --omit=dev --ignore-scripts /);
  });

  it('runs as a non-root user under tini, with a HEALTHCHECK on /health/live, and copies only the image folder and its node_modules', () => {
    const runtime = stage('runtime');
    expect(args(runtime, 'COPY').sort()).toEqual(['--from=build /out ./', '--from=deps /app/node_modules ./node_modules']);
    const [user] = args(runtime, 'USER');
    expect(user).toMatch(/^[1-9]\d*(?::\d+)?$/); // numeric, so Kubernetes can check runAsNonRoot
    expect(args(runtime, 'ENTRYPOINT')).toEqual(['["/usr/bin/tini", "--"]']);
    expect(runCommands(runtime).join(' ')).toMatch(/apt-get install -y --no-install-recommends tini/);
    expect(args(runtime, 'CMD')).toEqual(['["node", "."]']);
    const [healthcheck] = args(runtime, 'HEALTHCHECK');
    expect(healthcheck).toMatch(/CMD .*\/health\/live/);
    const env = args(runtime, 'ENV').join(' ');
    expect(env).toMatch(/NODE_ENV=production/);
    // The port the image listens on is the one the Kubernetes manifests and nginx use.
    const port = /PORT=(\d+)/.exec(env)![1];
    const deployment = parseYaml(readFileSync(join(ROOT, 'k8s/base/auth.yaml'), 'utf8')).find((o) => o.kind === 'Deployment')!;
    expect(String(deployment.spec.template.spec.containers[0].ports[0].containerPort)).toBe(port);
    expect(readFileSync(join(ROOT, 'docker/nginx.conf'), 'utf8')).toContain(`server auth:${port};`);
  });

  it('has a .dockerignore that keeps dependencies, build output, keys and git out of the build context', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', 'dist', '.data', '.git', '**/*.pem', '.env']));
  });
});

describe('the image folder build step', () => {
  it.each(ROUTES.map((r) => r.area))('%s has the Nx target "bundle" that writes its image folder', (area) => {
    const project = JSON.parse(readFileSync(join(ROOT, 'apps', area, 'project.json'), 'utf8'));
    expect(project.targets.bundle).toEqual({ command: `node tools/build-service.mjs ${area}` });
  });
});

describe('docker/compose.yaml', () => {
  const compose = parse(readFileSync(join(ROOT, 'docker/compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, any> };
  const areas = ROUTES.map((r) => r.area);

  it('runs postgres 16, NATS 2.10 with JetStream, Redis 7 (rate-limit counters), the seven services, nginx and a mail catcher', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['mailpit', 'nats', 'nginx', 'postgres', 'redis', ...areas].sort());
    expect(compose.services.redis.image).toMatch(/^redis:7\b/);
    for (const sender of ['auth', 'notifications']) expect(compose.services[sender].environment.SMTP_URL).toBe('smtp://mailpit:1025');
    expect(compose.services.postgres.image).toBe('postgres:16');
    expect(compose.services.nats.image).toMatch(/^nats:2\.10\b/);
    expect(compose.services.nats.command).toContain('-js');
  });

  it.each(ROUTES.map((r) => r.area))('builds %s from docker/Dockerfile with SERVICE set, non-root and read-only, trusting the mounted dev key (only here)', (area) => {
    const s = compose.services[area];
    expect(s.build).toEqual({ context: '..', dockerfile: 'docker/Dockerfile', args: { SERVICE: area } });
    expect(s.user).toBe('1000:1000');
    expect(s.read_only).toBe(true);
    expect(s.cap_drop).toEqual(['ALL']);
    expect(s.environment).toMatchObject({ AUTH_DEV_KEYS: 'true', DEV_KEYS_DIR: '/run/dev-keys', DATABASE_URL: expect.stringMatching(/^postgres:\/\/ddm_app:[^@]+@postgres:5432\//), MIGRATION_DATABASE_URL: expect.stringMatching(/@postgres:5432\//), NATS_URL: 'nats://nats:4222', REDIS_URL: 'redis://redis:6379/0' });
    // Only the public half of the key: the services never need the private one.
    expect(s.volumes).toEqual([{ type: 'bind', source: '../.data/dev-keys/public.pem', target: '/run/dev-keys/public.pem', read_only: true, bind: { create_host_path: false } }]);
    expect(s.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, nats: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
  });

  it('starts nginx once every service is healthy', () => {
    expect(Object.keys(compose.services.nginx.depends_on).sort()).toEqual([...areas].sort());
    expect(compose.services.nginx.volumes).toEqual(['./nginx.conf:/etc/nginx/nginx.conf:ro']);
  });
});

describe('docker/nginx.conf', () => {
  const conf = readFileSync(join(ROOT, 'docker/nginx.conf'), 'utf8').replace(/#.*$/gm, '');

  it('routes exactly the route table prefixes, each to its own service, with the path unchanged', () => {
    const locations = [...conf.matchAll(/location\s+(=\s+)?(\S+)\s*\{\s*proxy_pass\s+([^;]+);\s*\}/g)].map((m) => ({ exact: !!m[1], path: m[2], pass: m[3] }));
    const expected = ROUTES.flatMap((r) => [
      { exact: true, path: r.path, pass: `http://${r.area}` },
      { exact: false, path: `${r.path}/`, pass: `http://${r.area}` },
    ]);
    expect(locations.sort((a, b) => a.path.localeCompare(b.path))).toEqual(expected.sort((a, b) => a.path.localeCompare(b.path)));
    const upstreams = [...conf.matchAll(/upstream\s+(\S+)\s*\{\s*server\s+([^;\s]+)/g)].map((m) => [m[1], m[2]]);
    expect(upstreams.sort()).toEqual(ROUTES.map((r) => [r.area, `${r.area}:3000`]).sort());
    expect(conf).not.toMatch(/\brewrite\b/);
  });
});
