/*
 * prof.cu — the phase profiler of prof.cuh and cuzk_gpu_profile_report.
 * Marks are kept in one growing list (bounded: past PROF_MAX_MARKS new marks are dropped
 * and the report says so); events are created per mark and destroyed by the report.
 * Threading: one mutex around the list.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/gpu.h"
#include "gpu/prof.cuh"

#define PROF_MAX_MARKS 200000u
#define PROF_MAX_PHASES 64u

typedef struct prof_mark {
    cudaStream_t stream;
    const char *phase;
    cudaEvent_t ev;
} prof_mark;

static pthread_mutex_t prof_mu = PTHREAD_MUTEX_INITIALIZER;
static prof_mark *prof_marks;
static size_t prof_n, prof_cap, prof_dropped;
static int prof_on = -1;

bool gpu_prof_enabled(void)
{
    int on = __atomic_load_n(&prof_on, __ATOMIC_RELAXED);
    if (on < 0) {
        const char *v = getenv("CUZK_GPU_PROFILE");
        on = v && *v && strcmp(v, "0") != 0;
        __atomic_store_n(&prof_on, on, __ATOMIC_RELAXED);
    }
    return on != 0;
}

void gpu_prof_mark_slow(cudaStream_t s, const char *phase)
{
    pthread_mutex_lock(&prof_mu);
    if (prof_n == prof_cap) {
        size_t cap = prof_cap ? 2 * prof_cap : 1024;
        prof_mark *m = cap <= PROF_MAX_MARKS
                           ? (prof_mark *)realloc(prof_marks, cap * sizeof *m) : NULL;
        if (!m) {
            prof_dropped++;
            pthread_mutex_unlock(&prof_mu);
            return;
        }
        prof_marks = m;
        prof_cap = cap;
    }
    prof_mark *m = &prof_marks[prof_n];
    if (cudaEventCreate(&m->ev) != cudaSuccess || cudaEventRecord(m->ev, s) != cudaSuccess) {
        (void)cudaGetLastError(); /* profiling never fails the routine it watches */
        prof_dropped++;
    } else {
        m->stream = s;
        m->phase = phase;
        prof_n++;
    }
    pthread_mutex_unlock(&prof_mu);
}

extern "C" void cuzk_gpu_profile_report(FILE *out, const char *title, unsigned runs)
{
    if (!gpu_prof_enabled())
        return;
    pthread_mutex_lock(&prof_mu);
    (void)cudaDeviceSynchronize();
    const char *names[PROF_MAX_PHASES];
    double ms[PROF_MAX_PHASES];
    unsigned long calls[PROF_MAX_PHASES];
    size_t np = 0;
    double total = 0;
    for (size_t i = 0; i < prof_n; i++) {
        const prof_mark *a = &prof_marks[i];
        if (!a->phase)
            continue;
        const prof_mark *b = NULL; /* the next mark on the same stream */
        for (size_t j = i + 1; j < prof_n && !b; j++)
            if (prof_marks[j].stream == a->stream)
                b = &prof_marks[j];
        float t = 0;
        if (!b || cudaEventElapsedTime(&t, a->ev, b->ev) != cudaSuccess) {
            (void)cudaGetLastError();
            continue;
        }
        size_t k = 0;
        while (k < np && strcmp(names[k], a->phase) != 0)
            k++;
        if (k == np) {
            if (np == PROF_MAX_PHASES)
                continue;
            names[np] = a->phase;
            ms[np] = 0;
            calls[np++] = 0;
        }
        ms[k] += t;
        calls[k]++;
        total += t;
    }
    if (out && runs) {
        fprintf(out, "gpu profile, per run of %u: %s\n", runs, title ? title : "");
        for (size_t k = 0; k < np; k++)
            fprintf(out, "  %-28s %10.3f ms %6.1f %%  (%lu calls)\n", names[k], ms[k] / runs,
                    total > 0 ? 100.0 * ms[k] / total : 0.0, calls[k] / runs);
        if (prof_dropped)
            fprintf(out, "  (%zu marks dropped)\n", prof_dropped);
    }
    for (size_t i = 0; i < prof_n; i++)
        (void)cudaEventDestroy(prof_marks[i].ev);
    prof_n = 0;
    prof_dropped = 0;
    pthread_mutex_unlock(&prof_mu);
}
