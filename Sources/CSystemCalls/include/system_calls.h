// The system calls the C targets make, again when a signal interrupts them
// (EINTR): one place for the retry loops CImaging, CNcurses and CNetworking
// each had their own copies of.
#ifndef CSYSTEMCALLS_SYSTEM_CALLS_H
#define CSYSTEMCALLS_SYSTEM_CALLS_H

#include <poll.h>
#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

// One read(2) or pread(2): what it returns, never -1 with EINTR.
ssize_t pk_io_read_once(int fd, void *buffer, size_t size);
ssize_t pk_io_pread_once(int fd, void *buffer, size_t size, off_t offset);

// Reads until `size` bytes, the end or an error: how many were read, or -1
// for an error before any.
ssize_t pk_io_read_full(int fd, void *buffer, size_t size);
ssize_t pk_io_pread_full(int fd, void *buffer, size_t size, off_t offset);

// Writes all `size` bytes (short writes continued; a full non-blocking
// descriptor waited on, 100 ms at a time). 0, or -1. Only write(2) and
// poll(2): safe in a signal handler.
int pk_io_write_all(int fd, const void *data, size_t size);

// poll(2), again when a signal interrupts it (with the same timeout).
int pk_io_poll(struct pollfd *fds, nfds_t count, int timeout_ms);

// Asks the scheduler to give the calling thread short turns of `nanoseconds`
// (Linux 6.12's custom slice for ordinary threads, sched_setattr's
// sched_runtime; 0 asks for the default again): a thread that wakes for a
// key then runs ahead of threads that use up their longer default turns (the
// thumbnail decoders) instead of waiting for one of them to finish its turn.
// Returns the thread's request before (0: the default), to give back when
// done; -1 when refused, or for a real-time or deadline thread, which is
// left alone. Kernels before 6.12 take the call and change nothing.
long long pk_sched_request_slice(unsigned long long nanoseconds);

#ifdef __cplusplus
}
#endif

#endif
