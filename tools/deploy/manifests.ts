/**
 * Helpers of the deployment specs: render k8s/ with `kubectl kustomize`, validate objects with
 * kubernetes-models (the Kubernetes OpenAPI schema compiled to validators), find pod templates.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import * as appsV1 from 'kubernetes-models/apps/v1';
import * as autoscalingV2 from 'kubernetes-models/autoscaling/v2';
import * as batchV1 from 'kubernetes-models/batch/v1';
import * as coreV1 from 'kubernetes-models/v1';
import * as networkingV1 from 'kubernetes-models/networking.k8s.io/v1';
import * as policyV1 from 'kubernetes-models/policy/v1';

export const ROOT = join(__dirname, '../..');
export const K8S = join(ROOT, 'k8s');
export const OVERLAYS = ['staging-us', 'staging-eu', 'production-us', 'production-eu'] as const;
export type Overlay = (typeof OVERLAYS)[number];

/** Rendered YAML below the fields every object has; the specs check its shape at run time. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed YAML, checked by the schema and the specs
export type Yaml = any;

/** A rendered Kubernetes object (loosely typed: the specs read what they check). */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Yaml;
  data?: Record<string, string>;
  automountServiceAccountToken?: boolean;
  [key: string]: unknown;
}

/** `kubectl kustomize <dir>`; fails with a clear message when kubectl is not installed. */
export function kustomize(dir: string): { text: string; objects: K8sObject[] } {
  let text: string;
  try {
    text = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') {
      throw new Error(
        'kubectl was not found on PATH: the deployment specs render k8s/ with `kubectl kustomize` (kubectl >= 1.27 has kustomize built in). ' +
          'Install kubectl (https://kubernetes.io/docs/tasks/tools/) and run the tests again.',
      );
    }
    throw new Error(`kubectl kustomize ${dir} failed:\n${e.stderr ?? e.message}`);
  }
  return { text, objects: parseYaml(text) };
}

export function parseYaml(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length) throw new Error(`YAML error: ${doc.errors[0].message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

type ModelClass = new (data: unknown) => { validate(): void };
/** The API groups the manifests may use; an object of any other group/kind fails validation. */
const MODELS: Record<string, Record<string, unknown>> = {
  v1: coreV1,
  'apps/v1': appsV1,
  'autoscaling/v2': autoscalingV2,
  'batch/v1': batchV1,
  'networking.k8s.io/v1': networkingV1,
  'policy/v1': policyV1,
};

/** Validates one object against its kind's schema; returns the problems ([] when valid). */
export function schemaErrors(obj: K8sObject): string[] {
  const Model = MODELS[obj.apiVersion]?.[obj.kind] as ModelClass | undefined;
  if (!Model) return [`no schema for ${obj.apiVersion} ${obj.kind} (add its kubernetes-models module to tools/deploy/manifests.ts)`];
  try {
    new Model(obj).validate();
    return [];
  } catch (err) {
    return [`${obj.kind}/${obj.metadata?.name}: ${(err as Error).message}`];
  }
}

export const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);

export interface Container {
  name: string;
  image: string;
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Yaml;
  livenessProbe?: Yaml;
  readinessProbe?: Yaml;
  startupProbe?: Yaml;
  lifecycle?: Yaml;
  ports?: { name?: string; containerPort: number }[];
}

/** Every workload's pod template, with its owner. */
export function podTemplates(objects: K8sObject[]): { owner: K8sObject; pod: Yaml }[] {
  const out: { owner: K8sObject; pod: Yaml }[] = [];
  for (const o of objects) {
    if (['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicaSet'].includes(o.kind)) out.push({ owner: o, pod: o.spec.template });
    if (o.kind === 'CronJob') out.push({ owner: o, pod: o.spec.jobTemplate.spec.template });
    if (o.kind === 'Pod') out.push({ owner: o, pod: o });
  }
  return out;
}

export const containersOf = (pod: Yaml): Container[] => [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])];
