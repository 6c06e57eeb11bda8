/*
 * timeline.c — the Chrome trace-event timeline (timeline.h). Events are fixed-size records
 * in a ring; the stream file is a JSON array written one event per line, which the
 * trace-event format allows to be left unterminated, so a file cut by a crash or a
 * rotation still opens.
 * Threading: one mutex guards the ring, the track table and the stream.
 */
#include "engine/timeline.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_TRACKS 256

typedef struct tevent {
    double t0, t1;
    int track, partition;
    char name[24];
    char job[40];
} tevent;

struct etimeline {
    pthread_mutex_t mu;
    tevent *ring;
    unsigned cap;
    uint64_t count;
    char *tracks[MAX_TRACKS];
    int n_tracks;
    char *path;
    FILE *stream;
    uint64_t stream_bytes, rotate_bytes;
};

static void stream_open(etimeline *t)
{
    if (!t->path)
        return;
    t->stream = fopen(t->path, "w");
    t->stream_bytes = 0;
    if (!t->stream)
        return;
    t->stream_bytes += (uint64_t)fprintf(t->stream, "[\n");
    for (int i = 0; i < t->n_tracks; i++)
        t->stream_bytes += (uint64_t)fprintf(
            t->stream,
            "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":\"%s\"}},\n",
            i, t->tracks[i]);
    fflush(t->stream);
}

cuzk_status etimeline_create(etimeline **out, unsigned capacity, const char *path,
                             uint64_t rotate_bytes, cuzk_error *err)
{
    etimeline *t = calloc(1, sizeof *t);
    if (!t || !(t->ring = calloc(capacity ? capacity : 1, sizeof *t->ring))) {
        free(t);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "timeline: out of memory");
    }
    t->cap = capacity ? capacity : 1;
    t->rotate_bytes = rotate_bytes;
    pthread_mutex_init(&t->mu, NULL);
    if (path && *path) {
        t->path = strdup(path);
        if (t->path)
            stream_open(t);
        if (!t->stream) {
            etimeline_destroy(t);
            return cuzk_error_set(err, CUZK_ERR_IO, "timeline: cannot write %s", path);
        }
    }
    *out = t;
    return CUZK_OK;
}

void etimeline_destroy(etimeline *t)
{
    if (!t)
        return;
    if (t->stream)
        fclose(t->stream);
    for (int i = 0; i < t->n_tracks; i++)
        free(t->tracks[i]);
    free(t->path);
    free(t->ring);
    pthread_mutex_destroy(&t->mu);
    free(t);
}

int etimeline_track(etimeline *t, const char *name)
{
    pthread_mutex_lock(&t->mu);
    int id = -1;
    for (int i = 0; i < t->n_tracks; i++)
        if (strcmp(t->tracks[i], name) == 0)
            id = i;
    if (id < 0 && t->n_tracks < MAX_TRACKS && (t->tracks[t->n_tracks] = strdup(name))) {
        id = t->n_tracks++;
        if (t->stream) {
            t->stream_bytes += (uint64_t)fprintf(
                t->stream,
                "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":\"%s\"}},\n",
                id, name);
            fflush(t->stream);
        }
    }
    pthread_mutex_unlock(&t->mu);
    return id < 0 ? 0 : id;
}

static int event_json(char *buf, size_t cap, const tevent *ev)
{
    return snprintf(buf, cap,
                    "{\"name\":\"%s\",\"cat\":\"engine\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,"
                    "\"ts\":%.0f,\"dur\":%.0f,\"args\":{\"job\":\"%s\",\"partition\":%d}}",
                    ev->name, ev->track, ev->t0 * 1e3, (ev->t1 - ev->t0) * 1e3, ev->job,
                    ev->partition);
}

void etimeline_event(etimeline *t, int track, const char *name, double t0_ms, double t1_ms,
                     const char *job_id, int partition)
{
    tevent ev = {.t0 = t0_ms, .t1 = t1_ms < t0_ms ? t0_ms : t1_ms, .track = track,
                 .partition = partition};
    snprintf(ev.name, sizeof ev.name, "%s", name);
    snprintf(ev.job, sizeof ev.job, "%s", job_id ? job_id : "");
    pthread_mutex_lock(&t->mu);
    t->ring[t->count % t->cap] = ev;
    t->count++;
    if (t->stream) {
        char line[256];
        int n = event_json(line, sizeof line, &ev);
        fprintf(t->stream, "%s,\n", line);
        fflush(t->stream);
        t->stream_bytes += (uint64_t)n + 2;
        if (t->rotate_bytes && t->stream_bytes > t->rotate_bytes) {
            fclose(t->stream);
            t->stream = NULL;
            size_t pl = strlen(t->path) + 3;
            char *old = malloc(pl);
            if (old) {
                snprintf(old, pl, "%s.1", t->path);
                rename(t->path, old);
                free(old);
            }
            stream_open(t);
        }
    }
    pthread_mutex_unlock(&t->mu);
}

cuzk_status etimeline_write(etimeline *t, const char *path, cuzk_error *err)
{
    size_t pl = strlen(path) + 16;
    char *tmp = malloc(pl);
    if (!tmp)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "timeline: out of memory");
    snprintf(tmp, pl, "%s.tmp%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        free(tmp);
        return cuzk_error_set(err, CUZK_ERR_IO, "timeline: cannot write %s", path);
    }
    pthread_mutex_lock(&t->mu);
    fprintf(f, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
    bool first = true;
    for (int i = 0; i < t->n_tracks; i++) {
        fprintf(f, "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
                   "\"args\":{\"name\":\"%s\"}}",
                first ? "" : ",\n", i, t->tracks[i]);
        first = false;
    }
    uint64_t begin = t->count > t->cap ? t->count - t->cap : 0;
    for (uint64_t k = begin; k < t->count; k++) {
        char line[256];
        event_json(line, sizeof line, &t->ring[k % t->cap]);
        fprintf(f, "%s%s", first ? "" : ",\n", line);
        first = false;
    }
    pthread_mutex_unlock(&t->mu);
    fprintf(f, "\n]}\n");
    bool ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        free(tmp);
        return cuzk_error_set(err, CUZK_ERR_IO, "timeline: cannot write %s", path);
    }
    free(tmp);
    return CUZK_OK;
}

uint64_t etimeline_count(etimeline *t)
{
    pthread_mutex_lock(&t->mu);
    uint64_t n = t->count;
    pthread_mutex_unlock(&t->mu);
    return n;
}
