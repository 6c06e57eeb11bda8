/*
 * rpc_workers.c — the rpc server's handler threads. Handlers may block for minutes (an
 * AwaitProof), so the pool grows by one thread whenever a call arrives and no thread is
 * idle, up to opts.max_workers; beyond that calls wait in FIFO order. Threads live until
 * the server stops.
 *
 * Threading: rpc_workers_submit is called by the I/O thread; the queue is guarded by
 * srv->mu. A finished call goes back to the I/O thread through the completion queue.
 */
#include <stdlib.h>

#include "grpc_wire.h"
#include "rpc_internal.h"

static void run_call(rpc_server *srv, rpc_call *call)
{
    if (atomic_load(&call->cancelled) ||
        (call->deadline_ns != INT64_MAX && call->deadline_ns <= grpc_now_ns())) {
        call->reply.code = GRPC_CANCELLED; /* dropped anyway: the stream has its status */
    } else {
        atomic_fetch_add(&srv->calls_total, 1);
        call->method->fn(srv->ctx, call, call->req, call->req_len, &call->reply);
    }
    rpc_call_drop_request(call);
    rpc_server_push_completion(srv, call);
}

static void *worker_main(void *arg)
{
    rpc_server *srv = arg;
    pthread_mutex_lock(&srv->mu);
    for (;;) {
        while (!srv->q_head && !srv->pool_stop)
            pthread_cond_wait(&srv->cv, &srv->mu);
        if (!srv->q_head)
            break; /* stopping and nothing left */
        rpc_call *call = srv->q_head;
        srv->q_head = call->next;
        if (!srv->q_head)
            srv->q_tail = NULL;
        call->next = NULL;
        srv->queued--;
        srv->idle--;
        pthread_mutex_unlock(&srv->mu);
        run_call(srv, call);
        pthread_mutex_lock(&srv->mu);
        srv->idle++;
    }
    pthread_mutex_unlock(&srv->mu);
    return NULL;
}

cuzk_status rpc_workers_init(rpc_server *srv)
{
    srv->threads = calloc(srv->opts.max_workers, sizeof *srv->threads);
    return srv->threads ? CUZK_OK : CUZK_ERR_NOMEM;
}

void rpc_workers_submit(rpc_server *srv, rpc_call *call)
{
    atomic_fetch_add(&srv->n_calls, 1);
    pthread_mutex_lock(&srv->mu);
    if (srv->q_tail)
        srv->q_tail->next = call;
    else
        srv->q_head = call;
    srv->q_tail = call;
    srv->queued++;
    /* Every queued call needs an idle thread of its own: an idle thread that has been
     * signalled but not yet woken is already spoken for by an earlier call. */
    if (srv->queued > srv->idle && srv->nthreads < srv->opts.max_workers &&
        pthread_create(&srv->threads[srv->nthreads], NULL, worker_main, srv) == 0) {
        srv->nthreads++;
        srv->idle++;
    }
    pthread_mutex_unlock(&srv->mu);
    pthread_cond_signal(&srv->cv);
    /* With no thread at all (creation failed) the call would wait forever: answer it. */
    pthread_mutex_lock(&srv->mu);
    int orphan = srv->nthreads == 0;
    if (orphan) {
        srv->q_head = srv->q_tail = NULL;
        srv->queued = 0;
    }
    pthread_mutex_unlock(&srv->mu);
    if (orphan) {
        call->reply.code = GRPC_RESOURCE_EXHAUSTED;
        rpc_call_drop_request(call);
        rpc_server_push_completion(srv, call);
    }
}

void rpc_workers_fini(rpc_server *srv)
{
    pthread_mutex_lock(&srv->mu);
    srv->pool_stop = 1;
    pthread_mutex_unlock(&srv->mu);
    pthread_cond_broadcast(&srv->cv);
    for (unsigned i = 0; i < srv->nthreads; i++)
        pthread_join(srv->threads[i], NULL);
    free(srv->threads);
    srv->threads = NULL;
    srv->nthreads = srv->idle = 0;
}
