// The helper processes' protocol (raw_isolation.c asks, helper_server.c
// answers): what a request and an answer hold, and the socket calls both
// sides use. Private to CImaging; Linux only.
#ifndef CIMAGING_HELPER_PROTOCOL_H
#define CIMAGING_HELPER_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "decode_internal.h"

// A damaged RAW that makes LibRaw loop is given this long.
static const int helper_deadline_ms = 10000;
static const uint32_t answer_magic = 0x574152;  // "RAW"

typedef struct {
  uint32_t magic;
  int32_t status;
  pk_decode_options options;  // the outputs: format, sizes, orientation, error
  int32_t width, height;  // the pixels that follow
} decode_answer;

// The helper stays: a server started once (`--raw-helper serve`) that forks
// a fresh child for each RAW. Each file is still read in a process of its
// own that nothing before it touched, so a crash or a hang costs that one
// photo; what is saved is the exec, the dynamic loading and the runtime's
// start for every file. A request carries the file as a descriptor (a
// memfd of its bytes, or the file itself for facts); the server answers
// with the read end of a pipe the child writes its answer to, then, once
// the child is gone, its wait status. Idle servers are kept for the next
// request, one per request running at once.
// Videos go the same way (request_video, the file itself as descriptor):
// their demuxers and decoders meet hostile files too.
enum { request_decode = 1, request_facts = 2, request_video = 3 };

typedef struct {
  uint32_t magic;
  int32_t kind;
  int32_t need_width, need_height, enough_width, enough_height;
  int64_t max_pixels;
  int32_t rotation;  // a video's quarter turns, in degrees
} raw_request;

// Milliseconds of a monotonic clock.
int64_t pk_helper_now_ms(void);
// Reads exactly `size` bytes before the deadline; -1 on end, error or time.
int pk_helper_read_all(int fd, void *buffer, size_t size, int64_t deadline);
// Bytes with a descriptor riding along (SCM_RIGHTS); -1 when it fails.
int pk_helper_send(int socket, const void *bytes, size_t size, int descriptor);
// Receives `size` bytes and the descriptor that came with them; -1 on
// end, error, a missing descriptor or the deadline (-1: none).
int pk_helper_receive(int socket, void *bytes, size_t size, int *descriptor, int64_t deadline);

#endif
