// interop.js — drives a cuzk gRPC server with @grpc/grpc-js (the pure-JS gRPC that runs
// on node's nghttp2), loading only proto/cuzk/v1/proving.proto: every RPC, error codes,
// 40 concurrent calls multiplexed on one channel, a 64 MiB request, a request over the
// 256 MiB limit, a deadline and a client-side cancel. Expects the fake engine's
// behaviour (tests/server/fake_engine.h).
//   usage: node interop.js PROTO_ROOT ADDRESS      (ADDRESS: unix:///path or host:port)
'use strict';
const path = require('path');
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
const synthetic = (partitions, ms, extra = {}) => ({
  proof_kind: 'SYNTHETIC', synthetic_log2n: 10, synthetic_partitions: partitions,
  synthetic_seed: ms, ...extra,
});
function checkProof(buf, partitions) {
  assert.strictEqual(buf.length, partitions * 192);
  for (let i = 0; i < buf.length; i++) assert.strictEqual(buf[i], (i + partitions) & 0xff);
}

async function main() {
  const st = await ok('GetStatus', {});
  assert.strictEqual(st.gpus[0].name, 'fake-cpu');
  assert.strictEqual(st.memory_budget_bytes, 8 * 1024 ** 3);

  const sub = await ok('SubmitProof', synthetic(2, 20, { request_id: `js-${process.pid}` }));
  assert.strictEqual(sub.job_id.length, 36);
  const again = await ok('SubmitProof', synthetic(2, 20, { request_id: `js-${process.pid}` }));
  assert.strictEqual(again.job_id, sub.job_id);
  const aw = await ok('AwaitProof', { job_id: sub.job_id });
  assert.strictEqual(aw.status, 'COMPLETED');
  checkProof(aw.proof, 2);
  assert.strictEqual(aw.partitions, 2);

  const pr = await ok('Prove', { submit: synthetic(3, 10) });
  assert.strictEqual(pr.result.status, 'COMPLETED');
  checkProof(pr.result.proof, 3);
  const failed = await ok('Prove', { submit: { ...synthetic(1, 1), synthetic_log2n: 3 } });
  assert.strictEqual(failed.result.status, 'FAILED');
  assert.strictEqual(failed.result.error_message, 'injected failure');

  const long = await ok('SubmitProof', synthetic(1, 60000));
  const tmo = await ok('AwaitProof', { job_id: long.job_id, timeout_ms: 100 });
  assert.strictEqual(tmo.status, 'TIMEOUT');
  const cancel = await ok('CancelProof', { job_id: long.job_id });
  assert.strictEqual(cancel.was_running, false);
  assert.strictEqual((await ok('AwaitProof', { job_id: long.job_id })).status, 'CANCELLED');

  await code('AwaitProof', { job_id: 'nope' }, grpc.status.NOT_FOUND);
  await code('CancelProof', { job_id: 'nope' }, grpc.status.NOT_FOUND);
  await code('SubmitProof', { ...synthetic(1, 1), proof_kind: 77 }, grpc.status.INVALID_ARGUMENT);
  await code('SubmitProof', { ...synthetic(1, 1), proof_kind: 'POREP_SEAL_COMMIT' },
    grpc.status.UNIMPLEMENTED);
  await code('Prove', {}, grpc.status.INVALID_ARGUMENT);

  const pre = await ok('PreloadSRS', { circuit_id: 'synthetic-11' });
  assert.strictEqual(pre.already_loaded, false);
  assert.strictEqual((await ok('PreloadSRS', { circuit_id: 'synthetic-11' })).already_loaded, true);
  await code('PreloadSRS', { circuit_id: 'porep-32g' }, grpc.status.NOT_FOUND);
  const ev = await ok('EvictSRS', { circuit_id: 'synthetic-11' });
  assert.strictEqual(ev.was_loaded, true);
  assert.strictEqual(ev.freed_bytes, 11 * 1024 * 1024);
  const m = await ok('GetMetrics', {});
  assert.match(m.prometheus_text, /cuzk_rpc_calls_total \d+/);

  // Malformed protobuf, through the raw channel API.
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

  // 40 concurrent calls, multiplexed as streams of one HTTP/2 connection.
  const many = await Promise.all(Array.from({ length: 40 }, (_, i) =>
    ok('Prove', { submit: synthetic(1 + (i % 4), 5 * (i % 7)) })));
  many.forEach((r, i) => checkProof(r.result.proof, 1 + (i % 4)));

  // A 64 MiB request; the fake answers with the witness length in proof bytes 8..15.
  const big = Buffer.alloc(64 * 1024 * 1024, 0xa5);
  const bj = await ok('SubmitProof', { proof_kind: 'GROTH16', wtns: big });
  const br = await ok('AwaitProof', { job_id: bj.job_id });
  assert.strictEqual(Number(br.proof.readBigUInt64LE(8)), big.length);

  // Over the limit: a client allowed to send more gets RESOURCE_EXHAUSTED.
  const loose = new pkg.ProvingEngine(address, grpc.credentials.createInsecure(),
    { 'grpc.max_send_message_length': -1 });
  const { err: oerr } = await call('SubmitProof',
    { proof_kind: 'GROTH16', wtns: Buffer.alloc(MAX + 1) }, 0, loose);
  assert.strictEqual(oerr && oerr.code, grpc.status.RESOURCE_EXHAUSTED, String(oerr));
  loose.close();

  // Deadline, and a client that cancels: the server stays healthy.
  await code('Prove', { submit: synthetic(1, 5000) }, grpc.status.DEADLINE_EXCEEDED, 200);
  await new Promise((resolve) => {
    const c = client.Prove({ submit: synthetic(1, 5000) }, (err) => {
      assert.strictEqual(err && err.code, grpc.status.CANCELLED);
      resolve();
    });
    setTimeout(() => c.cancel(), 200);
  });
  assert.ok((await ok('GetStatus', {})).total_proofs_completed > 40);
  client.close();
  console.log('interop: all RPCs OK');
}

main().catch((e) => { console.error(e); process.exit(1); });
