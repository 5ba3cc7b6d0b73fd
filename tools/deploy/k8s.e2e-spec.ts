import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTES, UPLOAD_BODY_LIMIT, UPLOAD_ROUTE } from '@ddm/contracts';
import { Container, K8S, K8sObject, OVERLAYS, Overlay, ROOT, byKind, containersOf, kustomize, parseYaml, podTemplates, schemaErrors } from './manifests';

/**
 * The Kubernetes manifests as operators apply them: every overlay rendered by `kubectl kustomize`
 * and every object validated against the Kubernetes schema (kubernetes-models), then the rules
 * the deployment issue sets, checked on the rendered output.
 */
const rendered = new Map<Overlay | 'base', { text: string; objects: K8sObject[] }>();
const regionOf = (overlay: Overlay) => overlay.split('-')[1] as 'us' | 'eu';
const environmentOf = (overlay: Overlay) => overlay.split('-')[0] as 'staging' | 'production';

/** Service areas = apps with a main.ts, but the gateway (the local stand-in for the Ingress). */
const APP_AREAS = readdirSync(join(ROOT, 'apps'))
  .filter((d) => d !== 'gateway' && existsSync(join(ROOT, 'apps', d, 'src', 'main.ts')))
  .sort();

const serviceContainer = (pod: any): Container => pod.spec.containers.find((c: Container) => c.name === 'service');
const deployments = (o: Overlay) => byKind(rendered.get(o)!.objects, 'Deployment');
const configOf = (o: Overlay) => byKind(rendered.get(o)!.objects, 'ConfigMap').find((c) => c.metadata.name.startsWith('ddm-config'))!;

/** CPU in millicores, memory in bytes. */
function quantity(q: string): number {
  const m = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|k|M|G)?$/.exec(String(q));
  if (!m) throw new Error(`unexpected quantity ${q}`);
  const n = Number(m[1]);
  const unit = m[2] ?? '';
  const factor: Record<string, number> = { '': 1, m: 0.001, k: 1e3, M: 1e6, G: 1e9, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 };
  return n * factor[unit];
}

beforeAll(() => {
  rendered.set('base', kustomize(join(K8S, 'base')));
  for (const overlay of OVERLAYS) rendered.set(overlay, kustomize(join(K8S, 'overlays', overlay)));
});

describe('k8s: kustomize renders every overlay and every object is a valid Kubernetes object', () => {
  it.each(OVERLAYS)('%s renders and each object validates against the Kubernetes schema (kubernetes-models)', (overlay) => {
    const { objects } = rendered.get(overlay)!;
    expect(objects.length).toBeGreaterThan(40);
    expect(objects.flatMap(schemaErrors)).toEqual([]);
  });

  it('the base renders and validates on its own', () => {
    expect(rendered.get('base')!.objects.flatMap(schemaErrors)).toEqual([]);
  });

  it('the validator rejects malformed objects (so the check above can fail)', () => {
    const deployment = structuredClone(deployments('production-eu')[0]);
    deployment.spec.template.spec.containers[0].lifecycle.preStop.sleep.seconds = '10s';
    expect(schemaErrors(deployment).join()).toMatch(/preStop\/sleep\/seconds must be integer/);
    const ingress = structuredClone(byKind(rendered.get('production-eu')!.objects, 'Ingress')[0]);
    ingress.spec.rules[0].http.paths[0].pathType = 'prefix';
    expect(schemaErrors(ingress)).toHaveLength(1);
    const pdb = structuredClone(byKind(rendered.get('production-eu')!.objects, 'PodDisruptionBudget')[0]);
    pdb.spec.maxUnavailable = { one: 1 };
    expect(schemaErrors(pdb)).toHaveLength(1);
    expect(schemaErrors({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'x' } })[0]).toMatch(/no schema/);
  });
});

describe('k8s: the route table, the services, the base files and the Ingress agree', () => {
  it('every service app (apps/<area>/src/main.ts, but the gateway) is in the route table, and vice versa', () => {
    expect(ROUTES.map((r) => r.area).sort()).toEqual(APP_AREAS);
  });

  it('k8s/base holds one file per service, listed in the kustomization, with its ServiceAccount, Service, Deployment, autoscaler and disruption budget', () => {
    const kustomization = parseYaml(readFileSync(join(K8S, 'base', 'kustomization.yaml'), 'utf8'))[0] as any;
    for (const area of APP_AREAS) {
      expect(kustomization.resources).toContain(`${area}.yaml`);
      const objects = parseYaml(readFileSync(join(K8S, 'base', `${area}.yaml`), 'utf8'));
      expect(objects.map((o) => o.kind)).toEqual(['ServiceAccount', 'Service', 'Deployment', 'HorizontalPodAutoscaler', 'PodDisruptionBudget']);
      expect(objects.every((o) => o.metadata.name === area)).toBe(true);
    }
    // No file in k8s/base that the kustomization forgets.
    const files = readdirSync(join(K8S, 'base')).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
  });

  it('each route path is its service global prefix (notifications: no prefix, paths under /v1/notifications)', () => {
    for (const r of ROUTES) {
      if (r.globalPrefix) expect(r.path).toBe(`/${r.globalPrefix}`);
      else expect(r.path).toBe(`/v1/${r.area}`);
    }
  });

  it.each(OVERLAYS)('%s: one Ingress of class nginx for the API, one Prefix path per area equal to the route table path, to that area service, without rewrites', (overlay) => {
    const { objects } = rendered.get(overlay)!;
    const ingresses = byKind(objects, 'Ingress');
    expect(ingresses.map((i) => i.metadata.name).sort()).toEqual(['ddm', 'ddm-uploads']);
    const ingress = ingresses.find((i) => i.metadata.name === 'ddm')!;
    expect(ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size']).toBe('1m');
    expect(ingress.spec.ingressClassName).toBe('nginx');
    expect(Object.keys(ingress.metadata.annotations ?? {}).filter((a) => /rewrite|configuration-snippet/.test(a))).toEqual([]);
    expect(ingress.spec.rules).toHaveLength(1);
    const paths = ingress.spec.rules[0].http.paths as { path: string; pathType: string; backend: { service: { name: string; port: { name: string } } } }[];
    expect(paths.map((p) => p.path).sort()).toEqual(ROUTES.map((r) => r.path).sort());
    const services = byKind(objects, 'Service');
    for (const p of paths) {
      const route = ROUTES.find((r) => r.path === p.path)!;
      expect(p.pathType).toBe('Prefix');
      expect(p.backend.service).toEqual({ name: route.area, port: { name: 'http' } });
      expect(services.find((s) => s.metadata.name === route.area)?.spec.ports.map((port: { name: string }) => port.name)).toContain('http');
    }
  });

  it.each(OVERLAYS)('%s: the upload route has its own Ingress: the one Exact path of UPLOAD_ROUTE to the document service, 26m bodies streamed, the same host and certificate', (overlay) => {
    const ingresses = byKind(rendered.get(overlay)!.objects, 'Ingress');
    const api = ingresses.find((i) => i.metadata.name === 'ddm')!;
    const uploads = ingresses.find((i) => i.metadata.name === 'ddm-uploads')!;
    expect(uploads.spec.ingressClassName).toBe('nginx');
    expect(uploads.spec.rules).toHaveLength(1);
    expect(uploads.spec.rules[0].http.paths).toEqual([{ path: UPLOAD_ROUTE.path, pathType: 'Exact', backend: { service: { name: 'document', port: { name: 'http' } } } }]);
    expect(uploads.metadata.annotations).toMatchObject({ 'nginx.ingress.kubernetes.io/proxy-body-size': '26m', 'nginx.ingress.kubernetes.io/proxy-request-buffering': 'off' });
    // 26m leaves room for the multipart framing of a 25 MiB file (UPLOAD_BODY_LIMIT).
    expect(26 * 1024 * 1024).toBeGreaterThanOrEqual(UPLOAD_BODY_LIMIT);
    expect(uploads.spec.rules[0].host).toBe(api.spec.rules[0].host);
    expect(uploads.spec.tls).toEqual(api.spec.tls);
  });

  it.each(OVERLAYS)('%s: each area has its Deployment, Service, ServiceAccount, autoscaler and disruption budget, all pointing at the same pods', (overlay) => {
    const { objects } = rendered.get(overlay)!;
    for (const area of APP_AREAS) {
      const named = (kind: string) => byKind(objects, kind).find((o) => o.metadata.name === area);
      const deployment = named('Deployment')!;
      expect(deployment).toBeDefined();
      const podLabels = deployment.spec.template.metadata.labels;
      const matches = (selector: Record<string, string>) => Object.entries(selector).every(([k, v]) => podLabels[k] === v);
      expect(matches(deployment.spec.selector.matchLabels)).toBe(true);
      expect(matches(named('Service')!.spec.selector)).toBe(true);
      expect(matches(named('PodDisruptionBudget')!.spec.selector.matchLabels)).toBe(true);
      expect(named('HorizontalPodAutoscaler')!.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: area });
      expect(named('ServiceAccount')).toBeDefined();
      expect(deployment.spec.template.spec.serviceAccountName).toBe(area);
      // The autoscaler owns the replica count; a fixed one would be reset on every apply.
      expect(deployment.spec.replicas).toBeUndefined();
    }
    expect(byKind(objects, 'Deployment').map((d) => d.metadata.name).sort()).toEqual(APP_AREAS);
  });
});

describe('k8s: security, probes, shutdown and migrations', () => {
  it.each(OVERLAYS)('%s never trusts the development key', (overlay) => {
    const { text, objects } = rendered.get(overlay)!;
    expect(text).not.toMatch(/AUTH_DEV_KEYS|DEV_KEYS_DIR|dev-keys/);
    expect(Object.keys(configOf(overlay).data ?? {})).not.toContain('AUTH_DEV_KEYS');
    for (const { pod } of podTemplates(objects)) for (const c of containersOf(pod)) expect((c.env ?? []).map((e) => e.name)).not.toContain('AUTH_DEV_KEYS');
  });

  it.each(OVERLAYS)('%s: every container runs as non-root with a read-only root filesystem, no privilege escalation, no capabilities, and resource requests and limits', (overlay) => {
    const templates = podTemplates(rendered.get(overlay)!.objects);
    expect(templates).toHaveLength(APP_AREAS.length);
    for (const { owner, pod } of templates) {
      const spec = pod.spec;
      expect(spec.automountServiceAccountToken).toBe(false);
      expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      expect(spec.securityContext.runAsUser).toBeGreaterThan(0);
      expect(spec.hostNetwork ?? false).toBe(false);
      const tmp = spec.volumes.find((v: { name: string }) => v.name === 'tmp');
      expect(tmp.emptyDir).toBeDefined();
      for (const c of containersOf(pod)) {
        const where = `${owner.metadata.name}/${c.name}`;
        expect({ where, ...c.securityContext }).toMatchObject({
          where,
          runAsNonRoot: true,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        expect(c.securityContext.runAsUser ?? spec.securityContext.runAsUser).toBeGreaterThan(0);
        expect(c.securityContext.privileged ?? false).toBe(false);
        expect(c.securityContext.capabilities.add ?? []).toEqual([]);
        for (const kind of ['requests', 'limits'] as const) {
          expect({ where, kind, cpu: c.resources?.[kind]?.cpu, memory: c.resources?.[kind]?.memory }).toEqual({ where, kind, cpu: expect.any(String), memory: expect.any(String) });
        }
        expect(quantity(c.resources!.requests!.cpu)).toBeLessThanOrEqual(quantity(c.resources!.limits!.cpu));
        expect(quantity(c.resources!.requests!.memory)).toBeLessThanOrEqual(quantity(c.resources!.limits!.memory));
        expect((c as any).volumeMounts).toEqual(expect.arrayContaining([{ name: 'tmp', mountPath: '/tmp' }]));
      }
    }
  });

  it.each(OVERLAYS)('%s: every service container has liveness /health/live and readiness /health/ready probes on its http port', (overlay) => {
    for (const { pod } of podTemplates(rendered.get(overlay)!.objects)) {
      const c = serviceContainer(pod);
      expect(c.ports).toEqual([{ name: 'http', containerPort: 3000, protocol: 'TCP' }]);
      expect(c.livenessProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(c.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
    }
  });

  it.each(OVERLAYS)('%s: terminationGracePeriodSeconds exceeds the preStop pause plus SHUTDOWN_TIMEOUT_MS', (overlay) => {
    const config = configOf(overlay);
    const shutdownMs = Number(config.data!.SHUTDOWN_TIMEOUT_MS);
    expect(shutdownMs).toBeGreaterThanOrEqual(1000);
    for (const { owner, pod } of podTemplates(rendered.get(overlay)!.objects)) {
      const c = serviceContainer(pod);
      expect(c.envFrom).toEqual([{ configMapRef: { name: config.metadata.name } }]);
      // The service reads SHUTDOWN_TIMEOUT_MS from the ConfigMap only: no override in the container.
      expect((c.env ?? []).map((e) => e.name)).not.toContain('SHUTDOWN_TIMEOUT_MS');
      const pause = c.lifecycle?.preStop?.sleep?.seconds;
      expect({ deployment: owner.metadata.name, pause }).toEqual({ deployment: owner.metadata.name, pause: expect.any(Number) });
      expect(pause).toBeGreaterThan(0);
      expect(pod.spec.terminationGracePeriodSeconds).toBeGreaterThan(pause + shutdownMs / 1000);
    }
  });

  it.each(OVERLAYS)('%s: migrations run first, in an init container with the service image and its migrate command', (overlay) => {
    expect(configOf(overlay).data!.MIGRATIONS_RUN).toBe('false');
    for (const { owner, pod } of podTemplates(rendered.get(overlay)!.objects)) {
      const area = owner.metadata.name;
      const [migrate, ...more] = pod.spec.initContainers as Container[];
      expect(more).toEqual([]);
      expect(migrate.name).toBe('migrate');
      expect(migrate.args).toEqual(['node', `apps/${area}/src/migrate.js`]);
      expect(existsSync(join(ROOT, 'apps', area, 'src', 'migrate.ts'))).toBe(true);
      expect(migrate.image).toBe(serviceContainer(pod).image);
      // The app role (granted its rights) and the owner the migrations run as; the service container never gets the owner's.
      expect(migrate.env?.map((e) => e.name)).toEqual(['DATABASE_URL', 'MIGRATION_DATABASE_URL']);
    }
  });
});

describe('k8s: each overlay its own environment and region', () => {
  const SECRET_VARS = ['DATABASE_URL', 'NATS_URL', 'REDIS_URL', 'AUTH_JWKS_URI', 'AUTH_ISSUER', 'AUTH_AUDIENCE'];
  /** The services that send email: auth (invitations) and notifications. */
  const MAIL_SENDERS = ['auth', 'notifications'];

  it.each(OVERLAYS)('%s: DATABASE_URL, NATS_URL, REDIS_URL, AUTH_JWKS_URI/ISSUER/AUDIENCE and (the mail senders) SMTP_URL come from the region Secrets, never from the ConfigMap', (overlay) => {
    const region = regionOf(overlay);
    const config = configOf(overlay);
    for (const name of [...SECRET_VARS, 'SMTP_URL', 'AUTH_PUBLIC_KEY']) expect(Object.keys(config.data ?? {})).not.toContain(name);
    // The browser origins of this environment's web app, and only https ones.
    expect(config.data!.CORS_ORIGINS).toMatch(/^https:\/\/[a-z0-9.-]+(,https:\/\/[a-z0-9.-]+)*$/);
    for (const { owner, pod } of podTemplates(rendered.get(overlay)!.objects)) {
      const env = serviceContainer(pod).env ?? [];
      const expected = MAIL_SENDERS.includes(owner.metadata.name) ? [...SECRET_VARS, 'SMTP_URL'] : SECRET_VARS;
      expect(env.map((e) => e.name).sort()).toEqual([...expected].sort());
      for (const e of [...env, ...(pod.spec.initContainers[0].env ?? [])]) {
        expect(e.value).toBeUndefined();
        expect(e.valueFrom?.secretKeyRef).toEqual({ name: expect.stringMatching(new RegExp(`^ddm-[a-z]+-${region}$`)), key: e.name });
      }
    }
  });

  it('EU overlays use only EU Secrets and EU network ranges; US overlays only US ones', () => {
    const refs = (overlay: Overlay) => new Set(rendered.get(overlay)!.text.match(/ddm-(?:database|nats|redis|identity|smtp)-[a-z]+/g));
    const cidrs = (overlay: Overlay) =>
      byKind(rendered.get(overlay)!.objects, 'NetworkPolicy')
        .flatMap((p) => p.spec.egress ?? [])
        .flatMap((rule: any) => rule.to ?? [])
        .map((peer: any) => peer.ipBlock?.cidr)
        .filter(Boolean)
        .sort();
    expect(refs('staging-eu')).toEqual(refs('production-eu'));
    expect(refs('staging-us')).toEqual(refs('production-us'));
    expect([...refs('production-eu')].every((n) => n.endsWith('-eu'))).toBe(true);
    expect([...refs('production-us')].every((n) => n.endsWith('-us'))).toBe(true);
    expect(cidrs('staging-eu')).toEqual(cidrs('production-eu'));
    const eu = new Set(cidrs('production-eu'));
    expect(cidrs('production-us').filter((c) => eu.has(c))).toEqual([]);
  });

  it('each overlay has its own host (gateway URL, also the links in emails), TLS secret and namespace', () => {
    const facts = OVERLAYS.map((overlay) => {
      const [ingress] = byKind(rendered.get(overlay)!.objects, 'Ingress');
      const host = ingress.spec.rules[0].host as string;
      expect(configOf(overlay).data!.APP_URL).toBe(`https://${host}`);
      expect(ingress.spec.tls).toEqual([{ hosts: [host], secretName: expect.stringContaining(overlay) }]);
      const namespaces = new Set(rendered.get(overlay)!.objects.map((o) => o.metadata.namespace ?? (o.kind === 'Namespace' ? o.metadata.name : undefined)));
      expect(namespaces.size).toBe(1);
      return { host, tls: ingress.spec.tls[0].secretName as string, namespace: [...namespaces][0] };
    });
    for (const key of ['host', 'tls', 'namespace'] as const) expect(new Set(facts.map((f) => f[key])).size).toBe(OVERLAYS.length);
    for (const { host } of facts) expect(host).toMatch(/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/);
  });

  it.each(OVERLAYS)('%s: region and environment labels on every object and pod; every image pinned to one release tag and to its own service', (overlay) => {
    const { objects } = rendered.get(overlay)!;
    for (const o of objects) expect({ o: `${o.kind}/${o.metadata.name}`, ...o.metadata.labels }).toMatchObject({ region: regionOf(overlay), environment: environmentOf(overlay) });
    const tags = new Set<string>();
    for (const { owner, pod } of podTemplates(objects)) {
      expect(pod.metadata.labels).toMatchObject({ region: regionOf(overlay), environment: environmentOf(overlay) });
      for (const c of containersOf(pod)) {
        const m = /^(?:[a-z0-9.-]+\/)+([a-z0-9-]+):([\w][\w.-]{0,127})$/.exec(c.image);
        expect({ image: c.image, ok: !!m }).toEqual({ image: c.image, ok: true });
        expect(m![1]).toBe(owner.metadata.name);
        expect(m![2]).not.toBe('latest');
        tags.add(m![2]);
      }
    }
    expect(tags.size).toBe(1);
  });

  it('replicas and resources are set per environment: production runs at least 2 pods per service (the disruption budget keeps one), staging less', () => {
    for (const overlay of OVERLAYS) {
      const hpas = byKind(rendered.get(overlay)!.objects, 'HorizontalPodAutoscaler');
      for (const h of hpas) {
        expect(h.spec.minReplicas).toBeGreaterThanOrEqual(environmentOf(overlay) === 'production' ? 2 : 1);
        expect(h.spec.maxReplicas).toBeGreaterThan(h.spec.minReplicas);
      }
      for (const p of byKind(rendered.get(overlay)!.objects, 'PodDisruptionBudget')) expect(p.spec.maxUnavailable).toBe(1);
    }
    const cpu = (overlay: Overlay) => quantity(serviceContainer(deployments(overlay)[0].spec.template).resources!.requests!.cpu);
    const min = (overlay: Overlay) => byKind(rendered.get(overlay)!.objects, 'HorizontalPodAutoscaler')[0].spec.minReplicas;
    expect(cpu('production-us')).toBeGreaterThan(cpu('staging-us'));
    expect(min('production-eu')).toBeGreaterThan(min('staging-eu'));
  });

  it.each(OVERLAYS)('%s: network policies deny by default; only the ingress controller reaches the services; they reach only DNS, Postgres, NATS, Redis, the identity provider, and SMTP from the mail senders', (overlay) => {
    const policies = byKind(rendered.get(overlay)!.objects, 'NetworkPolicy');
    const ddmPods = { matchLabels: { 'app.kubernetes.io/part-of': 'ddm' } };
    const deny = policies.find((p) => !p.spec.ingress && !p.spec.egress);
    expect(deny?.spec).toEqual({ podSelector: ddmPods, policyTypes: ['Ingress', 'Egress'] });

    const ingressRules = policies.flatMap((p) => p.spec.ingress ?? []);
    expect(ingressRules).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } }, podSelector: { matchLabels: { 'app.kubernetes.io/name': 'ingress-nginx' } } }],
        ports: [{ port: 'http', protocol: 'TCP' }],
      },
    ]);

    const allowed: Record<string, string> = { '53/UDP': 'dns', '53/TCP': 'dns', '5432/TCP': 'postgres', '4222/TCP': 'nats', '6379/TCP': 'redis', '443/TCP': 'identity', '587/TCP': 'smtp', '465/TCP': 'smtp' };
    const seen = new Set<string>();
    for (const p of policies) {
      for (const rule of p.spec.egress ?? []) {
        expect(rule.to?.length).toBeGreaterThan(0); // an empty "to" would allow every destination
        for (const peer of rule.to) if (peer.ipBlock) expect(peer.ipBlock.cidr).not.toMatch(/^0\.0\.0\.0\/0$|^::\/0$/);
        expect(rule.ports?.length).toBeGreaterThan(0);
        for (const port of rule.ports) {
          const what = allowed[`${port.port}/${port.protocol}`];
          expect({ policy: p.metadata.name, port: port.port, what }).toEqual({ policy: p.metadata.name, port: port.port, what: expect.any(String) });
          seen.add(what);
          if (what === 'dns') expect(rule.to[0].podSelector).toEqual({ matchLabels: { 'k8s-app': 'kube-dns' } });
          if (what === 'smtp') expect(p.spec.podSelector).toEqual({ matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'In', values: MAIL_SENDERS }] });
        }
      }
    }
    expect([...seen].sort()).toEqual(['dns', 'identity', 'nats', 'postgres', 'redis', 'smtp']);
  });

  it('k8s/README.md names every Secret the overlays reference and what each overlay sets', () => {
    const guide = readFileSync(join(K8S, 'README.md'), 'utf8');
    for (const overlay of OVERLAYS) {
      const { text } = rendered.get(overlay)!;
      for (const name of new Set(text.match(/ddm-(?:database|nats|redis|identity|smtp)-[a-z]+|ddm-tls-[a-z-]+/g))) expect({ overlay, name, documented: guide.includes(name) }).toEqual({ overlay, name, documented: true });
      expect(guide).toContain(byKind(rendered.get(overlay)!.objects, 'Ingress')[0].spec.rules[0].host);
    }
  });
});
