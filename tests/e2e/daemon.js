// daemon.js — drives the real cuzkd (engine on the CPU backend) with @grpc/grpc-js, loading
// only proto/cuzk/v1/proving.proto: every RPC with the engine's real behaviour (proof sizes,
// idempotent resubmit, AwaitProof timeout, cancel, priority order, SRS preload/evict),
// error codes, malformed input, 50 concurrent Prove calls on one channel, a deadline and a
// client-side cancel. interop.js checks the transport against the fake engine instead (it
// relies on the fake's scripted answers).
//   usage: node daemon.js PROTO_ROOT ADDRESS      (ADDRESS: unix:///path or host:port)
'use strict';
const assert = require('assert');
const grpc = require('@grpc/grpc-js');
const loader = require('@grpc/proto-loader');

const [protoRoot, address] = process.argv.slice(2);
const def = loader.loadSync('cuzk/v1/proving.proto', {
  includeDirs: [protoRoot], keepCase: true, longs: Number, enums: String, defaults: true,
});
const pkg = grpc.loadPackageDefinition(def).cuzk.v1;
const MAX = 256 * 1024 * 1024;
const opts = { 'grpc.max_receive_message_length': MAX, 'grpc.max_send_message_length': MAX };
const client = new pkg.ProvingEngine(address, grpc.credentials.createInsecure(), opts);
// synthetic seeds: fresh each run (printed), so keys differ between runs
const seed = Number(process.env.CUZK_TEST_SEED || Math.floor(Math.random() * 1e6)) % 1e6;
console.log(`daemon.js: seed ${seed} (CUZK_TEST_SEED replays)`);

function call(method, req, deadlineMs, c = client) {
  return new Promise((resolve) => {
    const o = deadlineMs ? { deadline: Date.now() + deadlineMs } : {};
    c[method](req, o, (err, res) => resolve({ err, res }));
  });
}
async function ok(method, req) {
  const { err, res } = await call(method, req);
  assert.ifError(err);
  return res;
}
async function code(method, req, want, deadlineMs) {
  const { err } = await call(method, req, deadlineMs);
  assert.ok(err, `${method}: expected code ${want}, got OK`);
  assert.strictEqual(err.code, want, `${method}: ${err.code} ${err.details}`);
  return err;
}
const synthetic = (log2n, partitions, extra = {}) => ({
  proof_kind: 'SYNTHETIC', synthetic_log2n: log2n, synthetic_partitions: partitions,
  synthetic_seed: seed, ...extra,
});
function completed(r, partitions) {
  assert.strictEqual(r.status, 'COMPLETED', `${r.status} ${r.error_message}`);
  assert.strictEqual(r.partitions, partitions);
  assert.strictEqual(r.proof.length, partitions * 192);
  assert.strictEqual(r.benchmark_only, false);
}

async function main() {
  const st = await ok('GetStatus', {});
  assert.strictEqual(st.gpus.length, 1);
  assert.match(st.gpus[0].name, /cpu/);

  // idempotent resubmit: the same request_id names the same job
  const rid = `js-${process.pid}-${seed}`;
  const sub = await ok('SubmitProof', synthetic(9, 2, { request_id: rid }));
  assert.strictEqual(sub.job_id.length, 36);
  const again = await ok('SubmitProof', synthetic(9, 2, { request_id: rid }));
  assert.strictEqual(again.job_id, sub.job_id);
  completed(await ok('AwaitProof', { job_id: sub.job_id }), 2);
  completed((await ok('Prove', { submit: synthetic(8, 3) })).result, 3);

  // a long job (random key above the dev-setup size): AwaitProof times out, then cancel
  const long = await ok('SubmitProof', synthetic(17, 32));
  const tmo = await ok('AwaitProof', { job_id: long.job_id, timeout_ms: 100 });
  assert.strictEqual(tmo.status, 'TIMEOUT');
  // priority: behind the long job, a CRITICAL job submitted after a LOW one starts first
  const low = await ok('SubmitProof', synthetic(10, 4, { priority: 'LOW' }));
  const crit = await ok('SubmitProof', synthetic(10, 4, { priority: 'CRITICAL' }));
  await ok('CancelProof', { job_id: long.job_id });
  assert.strictEqual((await ok('AwaitProof', { job_id: long.job_id })).status, 'CANCELLED');
  const [rl, rc] = await Promise.all([ok('AwaitProof', { job_id: low.job_id }),
    ok('AwaitProof', { job_id: crit.job_id })]);
  completed(rl, 4);
  completed(rc, 4);
  console.log(`queue wait: CRITICAL ${rc.queue_wait_ms} ms, LOW ${rl.queue_wait_ms} ms`);
  assert.ok(rc.queue_wait_ms < rl.queue_wait_ms,
    `CRITICAL waited ${rc.queue_wait_ms} ms, LOW ${rl.queue_wait_ms} ms`);

  await code('AwaitProof', { job_id: 'nope' }, grpc.status.NOT_FOUND);
  await code('CancelProof', { job_id: 'nope' }, grpc.status.NOT_FOUND);
  await code('SubmitProof', synthetic(1, 1), grpc.status.INVALID_ARGUMENT);
  await code('SubmitProof', { ...synthetic(8, 1), proof_kind: 77 }, grpc.status.INVALID_ARGUMENT);
  await code('Prove', {}, grpc.status.INVALID_ARGUMENT);

  const cid = `synthetic-11-${seed}`;
  const pre = await ok('PreloadSRS', { circuit_id: cid });
  assert.strictEqual(pre.already_loaded, false);
  assert.strictEqual((await ok('PreloadSRS', { circuit_id: cid })).already_loaded, true);
  await code('PreloadSRS', { circuit_id: 'no-such-circuit' }, grpc.status.NOT_FOUND);
  const ev = await ok('EvictSRS', { circuit_id: cid });
  assert.strictEqual(ev.was_loaded, true);
  assert.ok(ev.freed_bytes > 0);
  const m = await ok('GetMetrics', {});
  assert.match(m.prometheus_text, /cuzk_rpc_calls_total \d+/);

  // malformed protobuf and an unknown method, through the raw channel API
  await new Promise((resolve) => {
    client.makeUnaryRequest('/cuzk.v1.ProvingEngine/SubmitProof', (b) => b, (b) => b,
      Buffer.from([0x0a, 0x64, 0x78]), (err) => {
        assert.strictEqual(err && err.code, grpc.status.INVALID_ARGUMENT);
        resolve();
      });
  });
  await new Promise((resolve) => {
    client.makeUnaryRequest('/cuzk.v1.ProvingEngine/Missing', (b) => b, (b) => b,
      Buffer.alloc(0), (err) => {
        assert.strictEqual(err && err.code, grpc.status.UNIMPLEMENTED);
        resolve();
      });
  });

  // 50 concurrent Prove calls, multiplexed as streams of one HTTP/2 connection
  const many = await Promise.all(Array.from({ length: 50 }, (_, i) =>
    ok('Prove', { submit: synthetic(6 + (i % 3), 1 + (i % 3)) })));
  many.forEach((r, i) => completed(r.result, 1 + (i % 3)));

  // a deadline, and a client that cancels: the daemon stays healthy
  await code('Prove', { submit: synthetic(15, 2) }, grpc.status.DEADLINE_EXCEEDED, 200);
  await new Promise((resolve) => {
    const c = client.Prove({ submit: synthetic(15, 2) }, (err) => {
      assert.strictEqual(err && err.code, grpc.status.CANCELLED);
      resolve();
    });
    setTimeout(() => c.cancel(), 200);
  });
  const end = await ok('GetStatus', {});
  assert.ok(end.total_proofs_completed >= 54, `completed ${end.total_proofs_completed}`);
  client.close();
  console.log('daemon.js: all RPCs OK against cuzkd');
}

main().catch((e) => { console.error(e); process.exit(1); });
