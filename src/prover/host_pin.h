/*
 * host_pin.h — host buffers pinned in place (cudaHostRegister) for the CUDA backend's
 * uploads, shared by every job that uploads from the same buffer: the engine's synthetic
 * partitions and a batch's repeated witnesses point at one array. A registration is
 * counted, and undone only when the last job that took it lets go, so one job's unpin can
 * never pull the pages from under another job's DMA still in flight (before, a second job
 * found the buffer "already registered", copied from it as if it were pageable, and the
 * first job's unregister could land during that copy).
 * Threading: any thread; one process-wide mutex (registrations are process-wide).
 */
#ifndef CUZK_PROVER_HOST_PIN_H
#define CUZK_PROVER_HOST_PIN_H

#include <stdbool.h>
#include <stddef.h>

/* Takes a pin on [ptr, ptr + bytes). true: pinned, release with host_pin_drop(ptr).
 * false: not pinned by us (pinned by its owner already, or the driver refused): copies
 * from it still work, from pageable memory at worst (a read-only file mapping is refused:
 * host_pin.cu says why). Never leaves a CUDA error behind. */
bool host_pin_take(const void *ptr, size_t bytes);
void host_pin_drop(const void *ptr);

#endif /* CUZK_PROVER_HOST_PIN_H */
