// The socket calls both sides of the helper protocol use (helper_protocol.h).
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "helper_protocol.h"
#include "system_calls.h"

#ifdef __linux__

int64_t pk_helper_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int pk_helper_read_all(int fd, void *buffer, size_t size, int64_t deadline) {
  uint8_t *at = buffer;
  while (size > 0) {
    // Past the deadline what is already there is still taken: the picker
    // may have been stopped (Ctrl-Z) while the answer came.
    const int64_t left = deadline - pk_helper_now_ms();
    struct pollfd ready = {fd, POLLIN, 0};
    if (pk_io_poll(&ready, 1, left > 0 ? (int)left : 0) <= 0) return -1;
    ssize_t n = pk_io_read_once(fd, at, size);
    if (n <= 0) return -1;
    at += n;
    size -= (size_t)n;
  }
  return 0;
}

int pk_helper_send(int socket, const void *bytes, size_t size, int descriptor) {
  struct iovec part = {(void *)bytes, size};
  union {
    char buffer[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } control;
  memset(&control, 0, sizeof control);
  struct msghdr message = {0};
  message.msg_iov = &part;
  message.msg_iovlen = 1;
  message.msg_control = control.buffer;
  message.msg_controllen = sizeof control.buffer;
  struct cmsghdr *header = CMSG_FIRSTHDR(&message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(header), &descriptor, sizeof(int));
  ssize_t sent;
  do sent = sendmsg(socket, &message, MSG_NOSIGNAL);
  while (sent < 0 && errno == EINTR);
  return sent == (ssize_t)size ? 0 : -1;
}

int pk_helper_receive(int socket, void *bytes, size_t size, int *descriptor, int64_t deadline) {
  if (deadline >= 0) {
    const int64_t left = deadline - pk_helper_now_ms();
    struct pollfd ready = {socket, POLLIN, 0};
    if (left <= 0 || pk_io_poll(&ready, 1, (int)left) <= 0) return -1;
  }
  struct iovec part = {bytes, size};
  union {
    char buffer[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } control;
  struct msghdr message = {0};
  message.msg_iov = &part;
  message.msg_iovlen = 1;
  message.msg_control = control.buffer;
  message.msg_controllen = sizeof control.buffer;
  ssize_t got;
  do got = recvmsg(socket, &message, MSG_CMSG_CLOEXEC | MSG_WAITALL);
  while (got < 0 && errno == EINTR);
  struct cmsghdr *header = got > 0 ? CMSG_FIRSTHDR(&message) : NULL;
  if (header == NULL || header->cmsg_type != SCM_RIGHTS || header->cmsg_len != CMSG_LEN(sizeof(int))) return -1;
  memcpy(descriptor, CMSG_DATA(header), sizeof(int));
  if (got != (ssize_t)size) {
    close(*descriptor);
    return -1;
  }
  return 0;
}

#endif
