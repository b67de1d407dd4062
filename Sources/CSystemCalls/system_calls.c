#include "system_calls.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

ssize_t pk_io_read_once(int fd, void *buffer, size_t size) {
  ssize_t n;
  do n = read(fd, buffer, size);
  while (n < 0 && errno == EINTR);
  return n;
}

ssize_t pk_io_pread_once(int fd, void *buffer, size_t size, off_t offset) {
  ssize_t n;
  do n = pread(fd, buffer, size, offset);
  while (n < 0 && errno == EINTR);
  return n;
}

ssize_t pk_io_read_full(int fd, void *buffer, size_t size) {
  uint8_t *at = buffer;
  size_t got = 0;
  while (got < size) {
    ssize_t n = pk_io_read_once(fd, at + got, size - got);
    if (n < 0) return got > 0 ? (ssize_t)got : -1;
    if (n == 0) break;
    got += (size_t)n;
  }
  return (ssize_t)got;
}

ssize_t pk_io_pread_full(int fd, void *buffer, size_t size, off_t offset) {
  uint8_t *at = buffer;
  size_t got = 0;
  while (got < size) {
    ssize_t n = pk_io_pread_once(fd, at + got, size - got, offset + (off_t)got);
    if (n < 0) return got > 0 ? (ssize_t)got : -1;
    if (n == 0) break;
    got += (size_t)n;
  }
  return (ssize_t)got;
}

int pk_io_write_all(int fd, const void *data, size_t size) {
  const uint8_t *at = data;
  while (size > 0) {
    ssize_t n = write(fd, at, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      struct pollfd room = {.fd = fd, .events = POLLOUT};
      pk_io_poll(&room, 1, 100);
      continue;
    }
    if (n <= 0) {
      // write(2) of nothing says no error of its own: the caller's message
      // would otherwise be a stale errno.
      if (n == 0) errno = EIO;
      return -1;
    }
    at += n;
    size -= (size_t)n;
  }
  return 0;
}

int pk_io_poll(struct pollfd *fds, nfds_t count, int timeout_ms) {
  int found;
  do found = poll(fds, count, timeout_ms);
  while (found < 0 && errno == EINTR);
  return found;
}

#if defined(__linux__) && defined(SYS_sched_setattr) && defined(SYS_sched_getattr)
// The kernel's struct sched_attr, first version (48 bytes): glibc does not
// declare it everywhere.
struct pk_sched_attr {
  uint32_t size;
  uint32_t policy;
  uint64_t flags;
  int32_t nice;
  uint32_t priority;
  uint64_t runtime;
  uint64_t deadline;
  uint64_t period;
};

long long pk_sched_request_slice(unsigned long long nanoseconds) {
  struct pk_sched_attr attr;
  memset(&attr, 0, sizeof attr);
  // The thread's own policy and niceness are kept; only the slice changes.
  if (syscall(SYS_sched_getattr, 0, &attr, (unsigned)sizeof attr, 0) != 0) return -1;
  // SCHED_OTHER, SCHED_BATCH, SCHED_IDLE: for the others `runtime` is a
  // budget, not a turn.
  if (attr.policy != 0 && attr.policy != 3 && attr.policy != 5) return -1;
  unsigned long long previous = attr.runtime;
  attr.size = sizeof attr;
  attr.runtime = nanoseconds;
  return syscall(SYS_sched_setattr, 0, &attr, 0) == 0 ? (long long)previous : -1;
}
#else
long long pk_sched_request_slice(unsigned long long nanoseconds) {
  (void)nanoseconds;
  return -1;
}
#endif
