/*
 * test_gpu_host_pin.cu — host_pin.h: a counted registration of heap memory, and a
 * read-only file mapping (as a circuit's CSR cache is mapped): refused or pinned, copies
 * from it give its bytes and nothing is left registered or in error. (s22 registered such
 * mappings as read-only; this test's first GPU run hung there, and that was taken out.)
 * Each pinned buffer is copied to the device and back and compared with its source.
 * Exits 77 (skipped) without a CUDA device.
 */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gpu_test.h"
#include "prover/host_pin.h" /* host_pin.cu: C++ linkage */

static bool registered(const void *p)
{
    cudaPointerAttributes pa;
    bool r = cudaPointerGetAttributes(&pa, p) == cudaSuccess &&
             pa.type != cudaMemoryTypeUnregistered;
    (void)cudaGetLastError();
    return r;
}

/* A copy through the device gives back the source's bytes. */
static void round_trip(const uint8_t *src, size_t n, const char *what)
{
    uint8_t *d = NULL, *back = (uint8_t *)malloc(n);
    GPU_CHECK(back && cudaMalloc(&d, n) == cudaSuccess, "%s: allocations", what);
    if (!back || !d)
        return;
    GPU_CHECK(cudaMemcpy(d, src, n, cudaMemcpyHostToDevice) == cudaSuccess, "%s: upload", what);
    GPU_CHECK(cudaMemcpy(back, d, n, cudaMemcpyDeviceToHost) == cudaSuccess, "%s: download",
              what);
    GPU_CHECK(memcmp(back, src, n) == 0, "%s: the device's copy differs", what);
    cudaFree(d);
    free(back);
}

int main(void)
{
    GPU_TEST_BEGIN("gpu_host_pin");
    setvbuf(stdout, NULL, _IOLBF, 0); /* a hang's last line reaches the log */
    const size_t n = (size_t)8 << 20;

    /* heap memory: pinned, counted, unpinned by the last drop only */
    uint8_t *h = (uint8_t *)malloc(n);
    for (size_t i = 0; i < n; i++)
        h[i] = (uint8_t)test_rng_u64();
    GPU_CHECK(host_pin_take(h, n) && registered(h), "heap: not pinned");
    GPU_CHECK(host_pin_take(h, n), "heap: a second take refused");
    GPU_CHECK(!host_pin_take(h, 2 * n), "heap: a longer range over the same start taken");
    round_trip(h, n, "heap");
    host_pin_drop(h);
    GPU_CHECK(registered(h), "heap: the first drop of two unpinned it");
    host_pin_drop(h);
    GPU_CHECK(!registered(h), "heap: still pinned after the last drop");

    /* a read-only file mapping, as mapped_file.c maps a circuit cache */
    char path[] = "/tmp/cuzk-host-pin-XXXXXX";
    int fd = mkstemp(path);
    GPU_CHECK(fd >= 0 && write(fd, h, n) == (ssize_t)n, "temp file");
    void *m = fd >= 0 ? mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    GPU_CHECK(m != MAP_FAILED, "mmap");
    if (m != MAP_FAILED) {
        /* the default registration only (host_pin.cu: read-only ones hung); refused on the
         * H100 box in s22 ("pinning refused"); a driver that takes it must pin and unpin it
         * like any other buffer. Each step is printed before it, so a hang names itself. */
        printf("registering a PROT_READ mapping\n");
        bool took = host_pin_take(m, n);
        printf("a PROT_READ mapping pinned: %d\n", took);
        GPU_CHECK(cudaGetLastError() == cudaSuccess, "a CUDA error left behind");
        GPU_CHECK(took == registered(m), "mapping: pinned %d, registered %d", took,
                  registered(m));
        round_trip((const uint8_t *)m, n, "PROT_READ mapping");
        if (took) {
            host_pin_drop(m);
            GPU_CHECK(!registered(m), "mapping: still pinned after its drop");
        }
        munmap(m, n);
    }
    if (fd >= 0) {
        close(fd);
        unlink(path);
    }
    free(h);
    GPU_TEST_END();
}
