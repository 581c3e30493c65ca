import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureGoTool, ensureKubernetesSchemas, KUBERNETES_VERSIONS, schemaLocation } from '../../infra/kubernetes-tools';
import { REPO_ROOT } from '../../infra/paths';
import { loadPayloadKeys } from '../../codec/keys';
import { loadUsersFile } from '../../console/users';
import { parseDockerfile } from '../support/dockerfile';
import { ROLE_COMMANDS, workerDrainSeconds } from '../support/deployment';
import { objects, renderAll, type K8sObject } from '../support/kubernetes';

const run = promisify(execFile);

/**
 * deploy/kubernetes/ rendered with kustomize and validated with kubeconform against the
 * Kubernetes API schemas of the oldest and newest release we support (both built or fetched
 * from the package registries: infra/kubernetes-tools.ts), then read for what a platform
 * team relies on. Nothing is applied to a cluster (there is none here).
 */
let rendered: Record<string, string>;
let work: string;
beforeAll(() => {
  const log = (l: string) => console.error(`[kubernetes] ${l}`);
  ensureGoTool('kustomize', log);
  ensureGoTool('kubeconform', log);
  ensureKubernetesSchemas(log);
  rendered = renderAll();
  work = mkdtempSync(join(tmpdir(), 'kubeconform-'));
}, 30 * 60_000); // a fresh machine builds kustomize and kubeconform from source (minutes)

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

async function kubeconform(file: string, k8s: string): Promise<{ code: number; stdout: string }> {
  const args = ['-strict', '-summary', '-output', 'json', '-kubernetes-version', k8s, '-schema-location', schemaLocation(ensureKubernetesSchemas()), file];
  try {
    const { stdout } = await run(ensureGoTool('kubeconform'), args, { maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout };
  } catch (e) {
    return { code: (e as { code: number }).code, stdout: (e as { stdout: string }).stdout };
  }
}

const OVERLAYS = ['local', 'aws-temporal-cloud', 'aws-temporal-cloud+mtls'] as const;
const byKind = (docs: K8sObject[], kind: string) => docs.filter((d) => d.kind === kind);
const deployment = (docs: K8sObject[], component: string) => docs.find((d) => d.kind === 'Deployment' && d.metadata.labels?.['app.kubernetes.io/component'] === component) as any;
const settings = (docs: K8sObject[]) => (docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'evolution-settings') as any).data as Record<string, string>;

describe('Kubernetes manifests (deploy/kubernetes, kustomize)', () => {
  it('validate against the Kubernetes API schemas (kubeconform -strict), every object known, for each supported release', async () => {
    for (const [name, yaml] of Object.entries(rendered)) {
      const file = join(work, `${name}.yaml`);
      writeFileSync(file, yaml);
      for (const k8s of KUBERNETES_VERSIONS) {
        const { code, stdout } = await kubeconform(file, k8s);
        const summary = JSON.parse(stdout).summary as { valid: number; invalid: number; errors: number; skipped: number };
        expect({ name, k8s, code, ...summary }, stdout).toEqual({ name, k8s, code: 0, valid: objects(yaml).length, invalid: 0, errors: 0, skipped: 0 });
      }
    }
  }, 300_000);

  it('the validator refuses what the API server would (a control, so a pass means something)', async () => {
    const bad = rendered.local!.replace(/containerPort: 9464/, 'containerPort: "9464"').replace(/terminationGracePeriodSeconds: 40/, 'terminationGracePeriodSeconds: forty');
    const file = join(work, 'bad.yaml');
    writeFileSync(file, bad);
    const { code, stdout } = await kubeconform(file, KUBERNETES_VERSIONS.at(-1)!);
    expect(code).not.toBe(0);
    expect(stdout).toContain('containerPort');
    expect(stdout).toContain('terminationGracePeriodSeconds');
  }, 120_000);

  it('has worker, evaluator and console Deployments with probes, resources, a non-root read-only securityContext and their roles', () => {
    const image = parseDockerfile(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8')).at(-1)!;
    const uid = Number(
      image.steps
        .filter((s) => s.keyword === 'USER')
        .at(-1)!
        .args[0]!.split(':')[0],
    );
    for (const overlay of OVERLAYS) {
      const docs = objects(rendered[overlay]!);
      const opsPort = Number(settings(docs).EVOLUTION_METRICS_PORT);
      for (const [component, role] of Object.entries(ROLE_COMMANDS)) {
        const d = deployment(docs, component);
        expect(d, `${overlay}: ${component}`).toBeDefined();
        const pod = d.spec.template.spec;
        const [c] = pod.containers;
        // args, not command: the image's ENTRYPOINT (tini) stays PID 1.
        expect(c.command, component).toBeUndefined();
        expect(c.args.slice(0, 3)).toEqual(['node', 'bin/evolution.js', role]);
        expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: uid, seccompProfile: { type: 'RuntimeDefault' } });
        expect(c.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
        expect(c.volumeMounts.map((m: { mountPath: string }) => m.mountPath)).toContain('/tmp');
        expect(c.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
        expect(c.resources.limits).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
        expect(pod.serviceAccountName).toBe('evolution');
        const port = (name: string | number) => (typeof name === 'number' ? name : c.ports.find((p: { name: string }) => p.name === name).containerPort);
        if (component === 'console') {
          expect(c.readinessProbe.httpGet.path).toBe('/healthz');
          expect(port(c.readinessProbe.httpGet.port)).toBe(Number(c.args[c.args.indexOf('--port') + 1]));
        } else {
          expect(c.readinessProbe.httpGet.path).toBe('/readyz');
          expect(c.livenessProbe.httpGet.path).toBe('/healthz');
          expect(port(c.readinessProbe.httpGet.port)).toBe(opsPort);
          expect(port(c.livenessProbe.httpGet.port)).toBe(opsPort);
          // Prometheus scrapes the ops port of every worker pod.
          expect(d.spec.template.metadata.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(opsPort), 'prometheus.io/path': '/metrics' });
          // Kubernetes' SIGKILL comes after the drain.
          expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(workerDrainSeconds());
        }
        expect(c.livenessProbe.httpGet.path).toBe('/healthz');
      }
    }
  });

  it('keeps each component available through voluntary disruptions (a PodDisruptionBudget selecting its pods)', () => {
    for (const overlay of OVERLAYS) {
      const docs = objects(rendered[overlay]!);
      for (const component of Object.keys(ROLE_COMMANDS)) {
        const d = deployment(docs, component);
        const pdbs = byKind(docs, 'PodDisruptionBudget').filter((p: any) =>
          Object.entries(p.spec.selector.matchLabels).every(([k, v]) => d.spec.template.metadata.labels[k] === v),
        ) as any[];
        expect(pdbs, `${overlay}: ${component}`).toHaveLength(1);
        expect(pdbs[0].spec.minAvailable).toBeLessThan(d.spec.replicas);
      }
    }
  });

  it('takes payload keys and console users from Secrets, mounted where the settings point', () => {
    for (const overlay of OVERLAYS) {
      const docs = objects(rendered[overlay]!);
      const keysSetting = settings(docs).EVOLUTION_PAYLOAD_KEYS!;
      expect(keysSetting).toMatch(/^file:\//);
      for (const component of Object.keys(ROLE_COMMANDS)) {
        const pod = deployment(docs, component).spec.template.spec;
        const mountOf = (secretPrefix: string) => {
          const volume = pod.volumes.find((v: any) => v.secret?.secretName.startsWith(secretPrefix));
          return volume && pod.containers[0].volumeMounts.find((m: any) => m.name === volume.name);
        };
        const keysMount = mountOf('evolution-payload-keys');
        expect(keysMount, `${overlay}: ${component}`).toBeDefined();
        expect(keysSetting.slice('file:'.length).startsWith(`${keysMount.mountPath}/`)).toBe(true);
        if (component === 'console') {
          const users = pod.containers[0].env.find((e: any) => e.name === 'EVOLUTION_CONSOLE_USERS').value as string;
          expect(users.startsWith(`${mountOf('evolution-console-users').mountPath}/`)).toBe(true);
          const sessionKeys = pod.containers[0].env.find((e: any) => e.name === 'EVOLUTION_CONSOLE_SESSION_KEYS').value as string;
          expect(sessionKeys.startsWith(`file:${mountOf('evolution-console-session-keys').mountPath}/`)).toBe(true);
        }
      }
    }
    // The local overlay's development Secrets are what the code accepts.
    const local = objects(rendered.local!);
    const secret = (prefix: string) => (local.find((d) => d.kind === 'Secret' && d.metadata.name.startsWith(prefix)) as any).data as Record<string, string>;
    const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
    expect(loadPayloadKeys(decode(secret('evolution-payload-keys').keys!))).toHaveLength(1);
    expect(loadPayloadKeys(decode(secret('evolution-console-session-keys').keys!), 'EVOLUTION_CONSOLE_SESSION_KEYS')).toHaveLength(1);
    const usersFile = join(work, 'console-users.json');
    writeFileSync(usersFile, decode(secret('evolution-console-users')['console-users.json']!));
    expect(loadUsersFile(usersFile).map((u) => u.name)).toEqual(['dev']);
    // Every Secret a local pod refers to is rendered; the production ones are created outside Git, as docs/deploy.md says.
    const referenced = new Set(
      byKind(local, 'Deployment').flatMap((d: any) => [
        ...(d.spec.template.spec.volumes ?? []).filter((v: any) => v.secret).map((v: any) => v.secret.secretName),
        ...d.spec.template.spec.containers.flatMap((c: any) => (c.envFrom ?? []).filter((e: any) => e.secretRef).map((e: any) => e.secretRef.name)),
      ]),
    );
    const secrets = new Set(byKind(local, 'Secret').map((s) => s.metadata.name));
    for (const name of referenced) expect(secrets.has(name), name).toBe(true);
    const guide = readFileSync(join(REPO_ROOT, 'docs', 'deploy.md'), 'utf8');
    for (const name of ['evolution-secrets', 'evolution-payload-keys', 'evolution-console-users', 'evolution-console-session-keys', 'evolution-temporal-mtls']) {
      expect(guide, `docs/deploy.md creates ${name}`).toMatch(new RegExp(`create secret \\w+ ${name}\\b`));
    }
  });

  it('reaches AWS S3 through IRSA in the production overlay: an annotated ServiceAccount and no static keys or endpoint', () => {
    for (const overlay of ['aws-temporal-cloud', 'aws-temporal-cloud+mtls'] as const) {
      const docs = objects(rendered[overlay]!);
      const sa = docs.find((d) => d.kind === 'ServiceAccount' && d.metadata.name === 'evolution')!;
      expect(sa.metadata.annotations?.['eks.amazonaws.com/role-arn']).toMatch(/^arn:aws:iam::\d{12}:role\/.+/);
      const s = settings(docs);
      expect(s).toMatchObject({ AWS_REGION: expect.any(String), S3_BUCKET: expect.any(String), TEMPORAL_TLS: 'true' });
      for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_ENDPOINT', 'AWS_ENDPOINT_URL_S3'])
        expect(s[name], name).toBeUndefined();
      expect(rendered[overlay]).not.toMatch(/AWS_ACCESS_KEY_ID|AWS_SECRET_ACCESS_KEY/);
    }
    const mtls = settings(objects(rendered['aws-temporal-cloud+mtls']!));
    expect(mtls).toMatchObject({ TEMPORAL_TLS_CLIENT_CERT_PATH: '/etc/evolution/temporal-mtls/tls.crt', TEMPORAL_TLS_CLIENT_KEY_PATH: '/etc/evolution/temporal-mtls/tls.key' });
  });

  it('never promotes a held revision by itself, in every overlay', () => {
    for (const overlay of OVERLAYS) {
      expect(settings(objects(rendered[overlay]!)), overlay).toMatchObject({
        EVOLUTION_APPROVAL_TIMEOUT: 'none',
        EVOLUTION_APPROVAL_EXPIRY_ACTION: 'reject',
        EVOLUTION_HUMAN_GATE: 'create_only',
      });
    }
  });
});
